-- id: slownim.remark6-2-2
-- source: slow-exact-k-nim.txt, Remark 6.2 (2)
-- kind: observation
-- statement: For odd n, the P-positions of SN(n, {1, n}) are a subset of those of SN(n, 1), just like
--   the P-positions of SN(n, {n−1, n}) are a subset of those of SN(n, n−1). Checked on the positions
--   present in both games of a pair.
-- covers: pairs (sn<n>_1-<n>, sn<n>_1) for odd n, and (sn<n>_<n-1>-<n>, sn<n>_<n-1>) for n >= 2,
--   e.g. (sn4_3-4, sn4_3), (sn5_4-5, sn5_4), (sn2_1-2, sn2_1)
-- needs: same n
-- domain: SELECT big.n FROM slownim AS big JOIN slownim AS small ON small.stacks = big.stacks
--   AND small.parts = big.parts AND small.moves = [big.moves[1]]
--   WHERE big.stacks >= 2 AND big.moves = [big.stacks - 1, big.stacks]
--   OR (big.stacks % 2 = 1 AND big.moves = list_sort(list_distinct([1, big.stacks])) AND small.moves = [1])
SELECT big.game, small.game AS subgame, big.n, big.parts, big.sg, small.sg AS sg_subgame
FROM slownim AS big
JOIN slownim AS small
    ON small.stacks = big.stacks AND small.parts = big.parts AND small.moves = [big.moves[1]]
WHERE (big.stacks >= 2 AND big.moves = [big.stacks - 1, big.stacks]
       OR (big.stacks % 2 = 1 AND big.moves = list_sort(list_distinct([1, big.stacks]))
           AND small.moves = [1]))
  AND big.sg = 0 AND small.sg <> 0
ORDER BY big.game, big.n, big.parts
