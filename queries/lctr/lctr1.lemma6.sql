-- id: lctr1.lemma6
-- source: lctr-some-results.txt, Lemma 6
-- kind: lemma
-- statement: For a positive integer k, SG(k^2) = SG(2^k) = 2 if k is odd and 0 if k is even.
-- covers: lctr; rectangles with two rows (k,k) or two columns (2^k), k ≥ 1
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 1 AND (num_parts = 2 OR largest = 2)
SELECT n, parts, sg, CASE WHEN (n // 2) % 2 = 1 THEN 2 ELSE 0 END AS expected
FROM lctr
WHERE distinct_sizes = 1 AND (num_parts = 2 OR largest = 2)
  AND sg <> CASE WHEN (n // 2) % 2 = 1 THEN 2 ELSE 0 END
