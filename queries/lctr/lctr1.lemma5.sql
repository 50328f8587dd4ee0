-- id: lctr1.lemma5
-- source: lctr-some-results.txt, Lemma 5
-- kind: lemma
-- statement: For n > 0, (n) and (1^n) are N-positions, and SG(n) = SG(1^n) = 1 if n is odd, 2 if n is
--   even.
-- covers: lctr; rows (n) and columns (1^n), n ≥ 1
-- needs: record
-- domain: SELECT n FROM lctr WHERE num_parts = 1 OR largest = 1
SELECT n, parts, sg, CASE WHEN n % 2 = 1 THEN 1 ELSE 2 END AS expected
FROM lctr
WHERE (num_parts = 1 OR largest = 1)
  AND sg <> CASE WHEN n % 2 = 1 THEN 1 ELSE 2 END
