-- id: lctr1.lemma13
-- source: lctr-some-results.txt, Lemma 13
-- kind: lemma
-- statement: Let n, r, s be positive integers with n > r. Then (n^r, r^s) is a P-position (SG value 0).
-- covers: lctr; thick Γ-partitions (n^m, r^s) with m = r (two distinct part sizes, the larger one
--   occurring exactly r times, r the smaller part)
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 2 AND conjugate[largest] = parts[num_parts]
SELECT n, parts, sg
FROM lctr
WHERE distinct_sizes = 2 AND conjugate[largest] = parts[num_parts]
  AND sg <> 0
