-- id: chess.conj5_2
-- source: impartial-chess.txt, Conjecture 5.2
-- kind: conjecture
-- statement: Let r ≠ c both be even and k ≥ 1. Then SG_King(G(k;r,c)) is 2 if k is odd and 3 if k is even.
-- covers: king; generalized staircases G(k;r,c) with r ≠ c, both even
-- needs: record
-- domain: SELECT n FROM king WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes *
--   parts[-1] AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1)
--   // conjugate[-1]))) AND conjugate[-1] <> parts[-1] AND conjugate[-1] % 2 = 0 AND parts[-1] % 2 = 0
SELECT 'king' AS game, n, parts, distinct_sizes AS k, conjugate[-1] AS r, parts[-1] AS c, sg,
       CASE WHEN distinct_sizes % 2 = 1 THEN 2 ELSE 3 END AS conjectured
FROM king
WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
  AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
  AND conjugate[-1] <> parts[-1] AND conjugate[-1] % 2 = 0 AND parts[-1] % 2 = 0
  AND sg <> CASE WHEN distinct_sizes % 2 = 1 THEN 2 ELSE 3 END
