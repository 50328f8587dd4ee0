-- id: slownim.example1-any-stacks
-- source: slow-exact-k-nim.txt, Example 1 (SN(n, [n]), from [8])
-- kind: proposition
-- statement: In SN(n, [n]) = SN(n, {1, …, n}) a player chooses any number of nonempty stacks and
--   removes one token from each; the P-positions are the positions whose stack heights are all even.
-- covers: SN(n, {1..n}) for every n >= 1 present (sn1_1, sn2_1-2, sn3_1-2-3, …); every position
-- needs: record
-- domain: SELECT n FROM slownim WHERE moves = range(1, stacks + 1)
SELECT game, n, parts, odd_stacks(parts) AS odd, sg
FROM slownim
WHERE moves = range(1, stacks + 1)
  AND (sg = 0) <> (odd_stacks(parts) = 0)
ORDER BY game, n, parts
