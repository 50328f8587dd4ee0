-- id: lctr2.lemma10
-- source: lctr-sg-complexity.txt, Lemma 10
-- kind: lemma
-- statement: Let λ be a partition and i, j ≥ 1 such that A = D(λ) and A[i,j] are positions in Downright.
--   Then SG(A[i−1,j−1]) = SG(A[i,j]).
-- covers: downright; every pair (μ, μ[1,1]) with μ[1,1] nonempty (Durfee length of μ ≥ 2). With
--   μ = λ[i−1,j−1] we have μ[1,1] = λ[i,j], so these pairs are exactly the pairs of cells in the
--   statement, for every λ present.
-- domain: SELECT n FROM downright WHERE durfee >= 2
SELECT a.n, a.parts, a.sg, b.parts AS diagonal_sub, b.sg AS diagonal_sg
FROM downright a
JOIN downright b ON record_key(b.n, b.ordinal) = part_key(list_filter(list_transform(a.parts[2:], lambda x: x - 1), lambda x: x > 0))
WHERE a.durfee >= 2 AND a.sg <> b.sg
