-- id: chess.thm4_8_pairs
-- source: impartial-chess.txt, Theorem 4.8, proof
-- kind: theorem
-- statement: Queen on staircases: G±_Queen(S(k)) is (0,1) for k = 1, (1,0) for k = 2 and (k−1, k−1)
--   for k > 2.
-- covers: queen; staircases S(k)
-- needs: record
-- domain: SELECT n FROM queen WHERE num_parts = largest AND distinct_sizes = largest
SELECT 'queen' AS game, n, parts, largest AS k, [sg, sg_misere] AS pair,
       CASE largest WHEN 1 THEN [0, 1] WHEN 2 THEN [1, 0] ELSE [largest - 1, largest - 1] END AS expected
FROM queen
WHERE num_parts = largest AND distinct_sizes = largest
  AND [sg, sg_misere] <> CASE largest WHEN 1 THEN [0, 1] WHEN 2 THEN [1, 0] ELSE [largest - 1, largest - 1] END
