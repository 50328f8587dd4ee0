-- id: lctr2.lemma12
-- source: lctr-sg-complexity.txt, Lemma 12 (one-row game)
-- kind: lemma
-- statement: Let A = L(λ) with λ = (λ1). Then SG(A) = 0 if λ1 = 0, 1 if λ1 is odd, 2 otherwise.
-- covers: lctr; one-row partitions (λ1), λ1 ≥ 1 (the empty partition is not a record)
-- needs: record
-- domain: SELECT n FROM lctr WHERE num_parts = 1
SELECT n, parts, sg, CASE WHEN largest % 2 = 1 THEN 1 ELSE 2 END AS expected
FROM lctr
WHERE num_parts = 1 AND sg <> CASE WHEN largest % 2 = 1 THEN 1 ELSE 2 END
