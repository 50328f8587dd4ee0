-- id: slownim.theorem3-3
-- source: slow-exact-k-nim.txt, Theorem 3.3
-- kind: theorem
-- statement: In SN(n, k) with k = n − 1, let s = Σ(p) mod 2k and o the number of odd stacks of the
--   reduced position p. Then s and o have the same parity, and p is a P-position iff (s, o) lies in
--   S1 = {0 <= s < k−1, o <= s} ∪ S2 = {s = n−2, o ≡ n mod 2} ∪ S3 = {k−1 < s < 2k−1, o <= 2(k−1) − s}
--   (compact form, docs/definitions.md §8.3: P iff s = k−1 or o <= min(s, 2k−2−s)). Checked on every record through
--   its reduced form (columns sum_mod = s and odd_stacks = o of r(p)), a position having the outcome
--   of its reduction (Proposition 2.4).
-- covers: SN(n, n−1) for every n >= 2 present (sn2_1, sn3_2, sn4_3, sn5_4, …); every position
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks >= 2 AND moves = [stacks - 1]
WITH t AS (
    SELECT game, n, parts, reduced_parts, sg, stacks::INTEGER AS nn, moves[1]::INTEGER AS k,
           sum_mod::INTEGER AS s, odd_stacks::INTEGER AS o
    FROM slownim
    WHERE stacks >= 2 AND moves = [stacks - 1]
), c AS (
    SELECT *,
           (s % 2 = o % 2 AND 0 <= s AND s < k - 1 AND o <= s)
           OR (s = nn - 2 AND o % 2 = nn % 2)
           OR (s % 2 = o % 2 AND k - 1 < s AND s < 2 * k - 1 AND o <= 2 * (k - 1) - s) AS theorem_p
    FROM t
)
SELECT game, n, parts, reduced_parts, s, o, sg, theorem_p
FROM c
WHERE s % 2 <> o % 2 OR (sg = 0) <> theorem_p
ORDER BY game, n, parts
