-- id: lctr2.lemma15
-- source: lctr-sg-complexity.txt, Lemma 15
-- kind: lemma
-- statement: Let A = L(λ) and i, j ≥ 1 with λ[i,j] nonempty. (1) If SG(A[i,j]) = 0 then d(λ[i,j]) ≥ 1
--   and SG(A[i−1,j−1]) = 0. (2) If SG(A[i,j]) = 1 and d(λ[i,j]) ≥ 2 then SG(A[i−1,j−1]) = 1. (3) If
--   SG(A[i,j]) = 2 and d(λ[i,j]) ≥ 3 then SG(A[i−1,j−1]) = 2.
-- covers: lctr; every pair (μ, ν = μ[1,1]) with ν nonempty (Durfee length of μ ≥ 2). With
--   μ = λ[i−1,j−1], ν = λ[i,j], so these are exactly the pairs of cells in the statement.
-- domain: SELECT n FROM lctr WHERE durfee >= 2
SELECT a.n, a.parts, a.sg, b.parts AS diagonal_sub, b.sg AS diagonal_sg, b.durfee AS diagonal_durfee
FROM lctr a
JOIN lctr b ON record_key(b.n, b.ordinal) = part_key(list_filter(list_transform(a.parts[2:], lambda x: x - 1), lambda x: x > 0))
WHERE a.durfee >= 2
  AND ((b.sg = 0 AND (a.sg <> 0 OR b.durfee < 1))
    OR (b.sg = 1 AND b.durfee >= 2 AND a.sg <> 1)
    OR (b.sg = 2 AND b.durfee >= 3 AND a.sg <> 2))
