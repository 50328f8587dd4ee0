-- id: chess.def3_1_queen
-- source: impartial-chess.txt, Definition 3.1 (Queen) and Section 3.6
-- kind: erratum
-- statement: Queen is played on the moveset (1,1)⁺ ∪ (1,0)⁺ ∪ (1,1)⁺.
-- correction: docs/definitions.md §8.5: the Queen's moveset is Rook ∪ Bishop, (1,0)⁺ ∪ (0,1)⁺ ∪ (1,1)⁺ (Section 3.6).
--   Checked through the records of rows and columns: with the (0,1)⁺ moves a row (c) is a Nim heap of
--   size c − 1 (SG c − 1, longest play c − 1 moves), as is a column (1^r); with the printed moveset a
--   row would be terminal. The corrected query checks rows and columns; the printed form reports the
--   rows (c), c ≥ 2, that are not terminal.
-- covers: queen; rows and columns
-- needs: record
-- domain: SELECT n FROM queen WHERE num_parts = 1 OR largest = 1
SELECT 'queen' AS game, n, parts, sg, height, n - 1 AS expected
FROM queen
WHERE (num_parts = 1 OR largest = 1) AND (sg <> n - 1 OR height <> n - 1)
-- printed form:
SELECT 'queen' AS game, n, parts, sg, height
FROM queen
WHERE num_parts = 1 AND n >= 2 AND height <> 0
