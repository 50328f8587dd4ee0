-- id: lctr2.lemma13
-- source: lctr-sg-complexity.txt, Lemma 13 (two-row game)
-- kind: lemma
-- statement: Let A = L(λ) with λ = (λ1, λ2). (1) If λ1 = λ2 then SG(A) = 0 if λ1 is even and 2 if λ1 is
--   odd. (2) If λ1 > λ2 > 0 then SG(A) = 0 if λ2 is odd and 1 if λ2 is even.
-- covers: lctr; two-row partitions
-- needs: record
-- domain: SELECT n FROM lctr WHERE num_parts = 2
WITH e AS (
    SELECT n, parts, sg,
           CASE WHEN parts[1] = parts[2] THEN CASE WHEN parts[1] % 2 = 0 THEN 0 ELSE 2 END
                ELSE CASE WHEN parts[2] % 2 = 1 THEN 0 ELSE 1 END END AS expected
    FROM lctr
    WHERE num_parts = 2
)
SELECT n, parts, sg, expected FROM e WHERE sg <> expected
