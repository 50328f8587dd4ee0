-- id: slownim.open-problem1-k-n-2
-- source: slow-exact-k-nim.txt, Open Problem 1 (Section 6), found by `partgames search pset_classes`
-- kind: conjecture
-- statement: In SN(n, {n−2}), n >= 4, let k = n − 2, s = Σ(r) mod 2k and o the number of odd stacks
--   of the reduced position r. Every position with Σ(r) < b(n) is a P-position iff
--   o <= min(s, 2k−2−s) (Conjecture 1's form), where b(n) = n(n−3) for even n (the first exception
--   is (n−3)^n, every stack n−3) and b(n) = (n−1)(n−2) + n−4 for odd n (the first exception is
--   ((n−2)^(n−1), n−4)). Beyond b(n) the form fails on a share of the records that falls with n
--   (17.4% for n = 4, N <= 149; 0.008% for n = 8, N <= 61; docs/open-problems.md). b(n) is read
--   from n = 4..8 and foreseen for n = 9: a run of SN(9, {7}) to N = 66 confirms it ((7^8, 5), Σ = 61).
-- covers: SN(n, {n−2}) for every n >= 4 present (sn4_2, sn5_3, sn6_4, sn7_5, sn8_6, …); the
--   positions with Σ(r) < b(n)
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks >= 4 AND moves = [stacks - 2]
--   AND coalesce(list_sum(reduced_parts), 0) < CASE WHEN stacks % 2 = 0 THEN stacks * (stacks - 3)
--   ELSE (stacks - 1) * (stacks - 2) + stacks - 4 END
WITH t AS (
    SELECT game, n, parts, reduced_parts, sg, stacks::INTEGER AS nn, (stacks - 2)::INTEGER AS k,
           coalesce(list_sum(reduced_parts), 0)::INTEGER AS sigma, odd_stacks::INTEGER AS o
    FROM slownim
    WHERE stacks >= 4 AND moves = [stacks - 2]
)
SELECT game, n, parts, reduced_parts, sigma % (2 * k) AS s, o, sg
FROM t
WHERE sigma < CASE WHEN nn % 2 = 0 THEN nn * (nn - 3) ELSE (nn - 1) * (nn - 2) + nn - 4 END
  AND (sg = 0) <> (o <= least(sigma % (2 * k), 2 * k - 2 - sigma % (2 * k)))
ORDER BY game, n, parts
