-- id: lctr1.lemma11
-- source: lctr-some-results.txt, Lemma 11
-- kind: lemma
-- statement: The staircase s_k = (k, k−1, …, 1) has SG value 1 if k is odd and 0 if k is even.
-- covers: lctr; staircases s_k, k ≥ 1
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = num_parts AND largest = num_parts
SELECT n, parts, sg, num_parts % 2 AS expected
FROM lctr
WHERE distinct_sizes = num_parts AND largest = num_parts
  AND sg <> num_parts % 2
