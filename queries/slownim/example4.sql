-- id: slownim.example4
-- source: slow-exact-k-nim.txt, Example 4 and the discussion of Figure 1 (Section 2.3)
-- kind: observation
-- statement: In SN(4,3), p = (1,2,5,6) is not reduced (3·6 = 18 > 14 = Σ(p)) and r(p) = (1,2,3,3); its
--   game tree has nine distinct positions (p and the terminal position included: states = 9); the
--   positions (0,1,5,5), (0,1,4,6) and (0,1,3,4) all reduce to (0,1,1,1).
-- covers: sn4_3; the positions (6,5,2,1), (5,5,1), (6,4,1), (4,3,1)
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks = 4 AND moves = [3]
--   AND parts IN ([6, 5, 2, 1], [5, 5, 1], [6, 4, 1], [4, 3, 1])
SELECT game, n, parts, reduced, reduced_parts, states
FROM slownim
WHERE stacks = 4 AND moves = [3]
  AND ((parts = [6, 5, 2, 1] AND (reduced OR reduced_parts <> [3, 3, 2, 1] OR states <> 9))
       OR (parts IN ([5, 5, 1], [6, 4, 1], [4, 3, 1]) AND reduced_parts <> [1, 1, 1]))
ORDER BY n, parts
