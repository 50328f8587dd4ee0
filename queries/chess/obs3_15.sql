-- id: chess.obs3_15
-- source: impartial-chess.txt, Observation 3.15
-- kind: observation
-- statement: Rook on a rectangle is two-pile Nim: SG_Rook(R(r,c)) = (r − 1) ⊕ (c − 1).
-- covers: rook; rectangles R(r,c), rows and columns included
-- needs: record
-- domain: SELECT n FROM rook WHERE distinct_sizes = 1
SELECT 'rook' AS game, n, parts, num_parts AS r, largest AS c, sg, xor(num_parts - 1, largest - 1) AS expected
FROM rook
WHERE distinct_sizes = 1 AND sg <> xor(num_parts - 1, largest - 1)
