-- id: lctr2.lemma14
-- source: lctr-sg-complexity.txt, Lemma 14 (three-row game)
-- kind: lemma
-- statement: Let A = L(λ) with λ = (λ1, λ2, λ3). (1) If λ1 = λ2 = λ3 > 0: SG(A) = 0 if λ3 ≥ 3 is odd,
--   1 if λ3 = 1 or λ3 ≥ 4 is even, 2 if λ3 = 2. (2) If λ1 > λ2 = λ3 > 0: 0 if λ3 is odd, 1 if even.
--   (3) If λ1 = λ2 > λ3 > 0: 0 if λ3 is even, 1 if odd. (4) If λ1 > λ2 > λ3 = 1: 1 if λ2 is even, 2 if
--   odd. (5) If λ1 > λ2 > λ3 > 1: 0 if λ3 is even, 1 if odd.
-- covers: lctr; three-row partitions (all five cases)
-- needs: record
-- domain: SELECT n FROM lctr WHERE num_parts = 3
WITH p AS (
    SELECT n, parts, sg, parts[1] AS a, parts[2] AS b, parts[3] AS c FROM lctr WHERE num_parts = 3
),
e AS (
    SELECT *,
           CASE WHEN a = b AND b = c THEN
                    CASE WHEN c = 2 THEN 2 WHEN c = 1 OR c % 2 = 0 THEN 1 ELSE 0 END
                WHEN a > b AND b = c THEN CASE WHEN c % 2 = 1 THEN 0 ELSE 1 END
                WHEN a = b AND b > c THEN CASE WHEN c % 2 = 0 THEN 0 ELSE 1 END
                WHEN c = 1 THEN CASE WHEN b % 2 = 0 THEN 1 ELSE 2 END
                ELSE CASE WHEN c % 2 = 0 THEN 0 ELSE 1 END END AS expected,
           CASE WHEN a = b AND b = c THEN 1 WHEN a > b AND b = c THEN 2 WHEN a = b THEN 3
                WHEN c = 1 THEN 4 ELSE 5 END AS lemma_case
    FROM p
)
SELECT n, parts, lemma_case, sg, expected FROM e WHERE sg <> expected
