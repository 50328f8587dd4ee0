-- id: slownim.conjecture1
-- source: slow-exact-k-nim.txt, Conjecture 1 (Section 6)
-- kind: conjecture
-- statement: In SN(n, A) with A = {k, k+1, …, n}, let s = Σ(p) mod 2k and o the number of odd stacks
--   of the reduced position p. Then s and o have the same parity, and p is a P-position iff
--   o <= min(s, 2k−2−s) (the structure of Theorem 5.1 generalizes).
-- correction: docs/definitions.md §8.3: as printed, S2 = {(k−1, o) : o, n same parity, 1 <= o <= k−1} contradicts
--   the parity claim whenever k−1 and n have different parities (and repeats Theorem 5.1's o >= 1
--   slip); the consistent form, used here, is P iff o <= min(s, 2k−2−s) (for k = n−1 it is the
--   corrected Theorem 5.1, for k = 1 "all stacks even", for k = n "smallest stack even"). Checked on
--   every record through its reduced form (sum_mod = s, odd_stacks = o).
-- covers: SN(n, {k..n}) for every 1 <= k <= n present (sn1_1, sn2_1-2, sn3_1-2-3, sn4_3-4, sn5_4-5,
--   sn5_3-4-5, …); every position
-- needs: record
-- domain: SELECT n FROM slownim WHERE moves = range(moves[1], stacks + 1)
WITH t AS (
    SELECT game, n, parts, reduced_parts, sg, moves[1]::INTEGER AS k,
           sum_mod::INTEGER AS s, odd_stacks::INTEGER AS o
    FROM slownim
    WHERE moves = range(moves[1], stacks + 1)
)
SELECT game, n, parts, reduced_parts, s, o, sg
FROM t
WHERE s % 2 <> o % 2 OR (sg = 0) <> (o <= least(s, 2 * k - 2 - s))
ORDER BY game, n, parts
