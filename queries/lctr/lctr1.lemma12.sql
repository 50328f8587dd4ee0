-- id: lctr1.lemma12
-- source: lctr-some-results.txt, Lemma 12
-- kind: lemma
-- statement: Γ-partitions (n, 1^s) with n > 1 and s > 0 are P-positions: their SG value is 0.
-- covers: lctr; Γ-partitions (n, 1^s), n ≥ 2, s ≥ 1
-- needs: record
-- domain: SELECT n FROM lctr WHERE durfee = 1 AND num_parts > 1 AND largest > 1
SELECT n, parts, sg
FROM lctr
WHERE durfee = 1 AND num_parts > 1 AND largest > 1
  AND sg <> 0
