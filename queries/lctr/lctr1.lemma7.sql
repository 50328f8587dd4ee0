-- id: lctr1.lemma7
-- source: lctr-some-results.txt, Lemma 7
-- kind: lemma
-- statement: For k ≥ 3, SG(k^3) = SG(3^k) = 0 if k is odd and 1 if k is even.
-- covers: lctr; rectangles with three rows (k^3) or three columns (3^k), k ≥ 3
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 1 AND (num_parts = 3 OR largest = 3) AND n >= 9
SELECT n, parts, sg, CASE WHEN (n // 3) % 2 = 1 THEN 0 ELSE 1 END AS expected
FROM lctr
WHERE distinct_sizes = 1 AND (num_parts = 3 OR largest = 3) AND n >= 9
  AND sg <> CASE WHEN (n // 3) % 2 = 1 THEN 0 ELSE 1 END
