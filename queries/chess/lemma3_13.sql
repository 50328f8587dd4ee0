-- id: chess.lemma3_13
-- source: impartial-chess.txt, Lemma 3.13
-- kind: lemma
-- statement: King on the staircase S(k) = (k, k−1, …, 1) has SG value (k − 1) mod 3.
-- covers: king; staircases S(k)
-- needs: record
-- domain: SELECT n FROM king WHERE num_parts = largest AND distinct_sizes = largest
SELECT 'king' AS game, n, parts, largest AS k, sg, (largest - 1) % 3 AS expected
FROM king
WHERE num_parts = largest AND distinct_sizes = largest AND sg <> (largest - 1) % 3
