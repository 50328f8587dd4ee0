-- id: chess.cor3_11
-- source: impartial-chess.txt, Corollary 3.11
-- kind: corollary
-- statement: If rc is even then the generalized staircase G(k;r,c) = ((kc)^r, ((k−1)c)^r, …, c^r) is
--   an N-position of King, for every k.
-- covers: king; generalized staircases G(k;r,c) with rc even (rectangles are k = 1)
-- needs: record
-- domain: SELECT n FROM king WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
--   AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
--   AND (conjugate[-1] * parts[-1]) % 2 = 0
SELECT 'king' AS game, n, parts, distinct_sizes AS k, conjugate[-1] AS r, parts[-1] AS c, sg
FROM king
WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
  AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
  AND (conjugate[-1] * parts[-1]) % 2 = 0
  AND sg = 0
