-- id: slownim.open-problem2-k-n-2
-- source: slow-exact-k-nim.txt, Open Problem 2 (Section 6), found by `partgames search pset_classes`
-- kind: conjecture
-- statement: In SN(n, A) with A = {n−2, n}, n >= 4, let k = n − 2, s = Σ(r) mod 2k and o the number
--   of odd stacks of the reduced position r. Every position with Σ(r) < (n−1)(2n−5) is a P-position
--   iff o <= min(s, 2k−2−s) (Conjecture 1's form, with k = min A). Beyond that bound the form fails:
--   the reduced position of n−1 stacks of 2n−5 and one empty stack, Σ(r) = (n−1)(2n−5), is a
--   P-position with o = n−1 > min(s, 2k−2−s) (n = 4..7; for n = 8 foreseen from those and confirmed
--   by a run to N = 80: (11^7, 0), Σ = 77, is the only exception there).
-- covers: SN(n, {n−2, n}) for every n >= 4 present (sn4_2-4, sn5_3-5, sn6_4-6, sn7_5-7, …); the
--   positions with Σ(r) < (n−1)(2n−5)
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks >= 4 AND moves = [stacks - 2, stacks]
--   AND coalesce(list_sum(reduced_parts), 0) < (stacks - 1) * (2 * stacks - 5)
WITH t AS (
    SELECT game, n, parts, reduced_parts, sg, stacks::INTEGER AS nn, (stacks - 2)::INTEGER AS k,
           coalesce(list_sum(reduced_parts), 0)::INTEGER AS sigma, odd_stacks::INTEGER AS o
    FROM slownim
    WHERE stacks >= 4 AND moves = [stacks - 2, stacks]
)
SELECT game, n, parts, reduced_parts, sigma % (2 * k) AS s, o, sg
FROM t
WHERE sigma < (nn - 1) * (2 * nn - 5)
  AND (sg = 0) <> (o <= least(sigma % (2 * k), 2 * k - 2 - sigma % (2 * k)))
ORDER BY game, n, parts
