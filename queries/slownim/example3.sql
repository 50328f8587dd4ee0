-- id: slownim.example3
-- source: slow-exact-k-nim.txt, Examples 2 and 3
-- kind: observation
-- statement: In SN(3,2), every position (1,1,m) with m >= 2 has the reduction r(p) = (1,1,2) (u(p) =
--   (0,0,m−2)), and is an N-position (Example 2: (1,1,100) and (1,1,2) are both N, the game being
--   over after one move on the two stacks of height one).
-- covers: sn3_2; positions (m,1,1), m >= 2
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks = 3 AND moves = [2] AND len(parts) = 3 AND parts[2] = 1
--   AND parts[3] = 1 AND parts[1] >= 2
SELECT game, n, parts, reduced_parts, sg
FROM slownim
WHERE stacks = 3 AND moves = [2] AND len(parts) = 3 AND parts[2] = 1 AND parts[3] = 1 AND parts[1] >= 2
  AND (reduced_parts <> [2, 1, 1] OR sg = 0)
ORDER BY n
