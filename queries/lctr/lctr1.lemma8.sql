-- id: lctr1.lemma8
-- source: lctr-some-results.txt, Lemma 8
-- kind: lemma
-- statement: For integers m, n ≥ 3, the rectangle (n^m) has SG value 0 if m + n is even and 1 if m + n
--   is odd.
-- covers: lctr; rectangles (n^m) with m, n ≥ 3
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 1 AND num_parts >= 3 AND largest >= 3
SELECT n, parts, sg, (num_parts + largest) % 2 AS expected
FROM lctr
WHERE distinct_sizes = 1 AND num_parts >= 3 AND largest >= 3
  AND sg <> (num_parts + largest) % 2
