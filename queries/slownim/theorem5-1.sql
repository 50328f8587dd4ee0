-- id: slownim.theorem5-1
-- source: slow-exact-k-nim.txt, Theorem 5.1
-- kind: erratum
-- statement: In SN(n, A) with A = {n−1, n}, let s = Σ(p) mod (2n−2) and o the number of odd stacks
--   of the reduced position p. Then s and o have the same parity, and the P-positions are
--   S1 = {0 <= s < n−2, o <= s} ∪ S2 = {s = n−2, o ≡ n mod 2, 1 <= o <= n−2}
--   ∪ S3 = {n−2 < s < 2n−3, o <= 2(n−2) − s}, with s and o of the same parity in S1 and S3.
-- correction: docs/definitions.md §8.3: the bound 1 <= o in S2 is wrong for even n ((2,2,2,2) in SN(4,{3,4}) has
--   s = 2 = n−2, o = 0 and is a P-position, as Theorem 4.1 requires). Corrected, with a = n − 1:
--   P iff o <= min(s, 2a−2−s). Both forms are checked on every record through its reduced form
--   (columns sum_mod = s, odd_stacks = o), a position having the outcome of its reduction.
-- covers: SN(n, {n−1, n}) for every n >= 2 present (sn2_1-2, sn3_2-3, sn4_3-4, sn5_4-5, …); every
--   position
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks >= 2 AND moves = [stacks - 1, stacks]
WITH t AS (
    SELECT game, n, parts, reduced_parts, sg, moves[1]::INTEGER AS a,
           sum_mod::INTEGER AS s, odd_stacks::INTEGER AS o
    FROM slownim
    WHERE stacks >= 2 AND moves = [stacks - 1, stacks]
)
SELECT game, n, parts, reduced_parts, s, o, sg
FROM t
WHERE s % 2 <> o % 2 OR (sg = 0) <> (o <= least(s, 2 * a - 2 - s))
ORDER BY game, n, parts
-- printed form:
WITH t AS (
    SELECT game, n, parts, reduced_parts, sg, stacks::INTEGER AS nn,
           sum_mod::INTEGER AS s, odd_stacks::INTEGER AS o
    FROM slownim
    WHERE stacks >= 2 AND moves = [stacks - 1, stacks]
), c AS (
    SELECT *,
           (s % 2 = o % 2 AND 0 <= s AND s < nn - 2 AND o <= s)
           OR (s = nn - 2 AND o % 2 = nn % 2 AND 1 <= o AND o <= nn - 2)
           OR (s % 2 = o % 2 AND nn - 2 < s AND s < 2 * nn - 3 AND o <= 2 * (nn - 2) - s) AS printed_p
    FROM t
)
SELECT game, n, parts, reduced_parts, s, o, sg, printed_p
FROM c
WHERE s % 2 <> o % 2 OR (sg = 0) <> printed_p
ORDER BY game, n, parts
