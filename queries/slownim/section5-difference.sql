-- id: slownim.section5-difference
-- source: slow-exact-k-nim.txt, Section 5 (text before Theorem 5.1, Figure 5)
-- kind: observation
-- statement: The P-positions of SN(n, {n−1, n}) closely resemble those of SN(n, n−1): the only
--   difference in the two games' outcome classes is at (s, o) = (n−2, n), which is P in SN(n, n−1)
--   and N in SN(n, {n−1, n}) (o = n ∈ A, Theorem 4.1). Both games have a = n − 1, so a position has
--   the same reduced form, s = sum_mod and o = odd_stacks in both. Checked on the positions present
--   in both games: they have different outcomes exactly when (s, o) = (n−2, n).
-- covers: pairs (sn<n>_<n-1>-<n>, sn<n>_<n-1>) for n >= 2, e.g. (sn4_3-4, sn4_3), (sn5_4-5, sn5_4)
-- needs: same n
-- domain: SELECT big.n FROM slownim AS big JOIN slownim AS small ON small.stacks = big.stacks
--   AND small.parts = big.parts AND small.moves = [big.stacks - 1]
--   WHERE big.stacks >= 2 AND big.moves = [big.stacks - 1, big.stacks]
SELECT big.game, small.game AS subgame, big.n, big.parts, big.reduced_parts,
       big.sum_mod AS s, big.odd_stacks AS o, big.sg, small.sg AS sg_subgame
FROM slownim AS big
JOIN slownim AS small
    ON small.stacks = big.stacks AND small.parts = big.parts AND small.moves = [big.stacks - 1]
WHERE big.stacks >= 2 AND big.moves = [big.stacks - 1, big.stacks]
  AND ((big.sg = 0) <> (small.sg = 0)) <> (big.sum_mod = big.stacks - 2 AND big.odd_stacks = big.stacks)
ORDER BY big.game, big.n, big.parts
