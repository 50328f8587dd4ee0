-- id: chess.lemma3_14
-- source: impartial-chess.txt, Lemma 3.14
-- kind: lemma
-- statement: Let r be even. King on the square generalized staircase G(k;r,r) has SG value 2 if
--   k = 1 and 1 otherwise.
-- covers: king; generalized staircases G(k;r,r) with r even
-- needs: record
-- domain: SELECT n FROM king WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
--   AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
--   AND conjugate[-1] = parts[-1] AND conjugate[-1] % 2 = 0
SELECT 'king' AS game, n, parts, distinct_sizes AS k, conjugate[-1] AS r, sg,
       CASE WHEN distinct_sizes = 1 THEN 2 ELSE 1 END AS expected
FROM king
WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
  AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
  AND conjugate[-1] = parts[-1] AND conjugate[-1] % 2 = 0
  AND sg <> CASE WHEN distinct_sizes = 1 THEN 2 ELSE 1 END
