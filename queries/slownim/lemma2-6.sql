-- id: slownim.lemma2-6
-- source: slow-exact-k-nim.txt, Lemma 2.6
-- kind: lemma
-- statement: In SN(n, A), if p is reduced then ctt(p, m) is reduced for every m, where
--   ctt(p, m)_i = min(p_i, m) chops every stack to height at most m. Checked for every reduced
--   record and every level 0 <= m <= max(p) (larger m leave p unchanged), with NIRB for a = min A.
-- covers: every Slow SetNim game; every reduced position
-- needs: record
-- domain: SELECT n FROM slownim WHERE reduced
SELECT game, n, parts, moves,
       list_filter(range(0, parts[1] + 1),
           lambda m: NOT is_nim_reduced(list_transform(parts, lambda x: least(x, m)), moves[1]))
           AS unreduced_levels
FROM slownim
WHERE reduced
  AND len(list_filter(range(0, parts[1] + 1),
          lambda m: NOT is_nim_reduced(list_transform(parts, lambda x: least(x, m)), moves[1]))) > 0
ORDER BY game, n, parts
