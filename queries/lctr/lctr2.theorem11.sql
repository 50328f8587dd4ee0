-- id: lctr2.theorem11
-- source: lctr-sg-complexity.txt, Theorem 11
-- kind: theorem
-- statement: Let λ be a partition, A = D(λ) a game of Downright and ℓ = d(λ) its Durfee length. Then
--   SG(A) = SG(A[1,1]) = SG(A[2,2]) = … = SG(A[ℓ−1,ℓ−1]).
-- covers: downright; every partition with Durfee length ≥ 2, joined to its diagonal sub-partitions
--   λ[k,k], 1 ≤ k < d(λ)
-- domain: SELECT n FROM downright WHERE durfee >= 2
WITH d AS (
    SELECT n, parts, sg, unnest(range(1, durfee)) AS k
    FROM downright
    WHERE durfee >= 2
)
SELECT d.n, d.parts, d.sg, d.k, b.parts AS diagonal_sub, b.sg AS diagonal_sg
FROM d
JOIN downright b ON record_key(b.n, b.ordinal) = part_key(list_filter(list_transform(d.parts[d.k + 1:], lambda x: x - d.k), lambda x: x > 0))
WHERE d.sg <> b.sg
