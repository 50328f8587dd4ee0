-- id: lctr2.corollary16
-- source: lctr-sg-complexity.txt, Corollary 16
-- kind: corollary
-- statement: Let λ be a partition, ℓ = d(λ) − 3 ≥ 0 and A = L(λ). Then SG(A) = SG(A[ℓ,ℓ]).
-- covers: lctr; every partition with Durfee length ≥ 3, joined to λ[d−3, d−3]
-- domain: SELECT n FROM lctr WHERE durfee >= 3
WITH d AS (
    SELECT n, parts, sg, durfee - 3 AS k FROM lctr WHERE durfee >= 3
)
SELECT d.n, d.parts, d.sg, d.k AS ell, b.parts AS diagonal_sub, b.sg AS diagonal_sg
FROM d
JOIN lctr b ON record_key(b.n, b.ordinal) = part_key(list_filter(list_transform(d.parts[d.k + 1:], lambda x: x - d.k), lambda x: x > 0))
WHERE d.sg <> b.sg
