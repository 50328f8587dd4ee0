-- id: chess.fig3
-- source: impartial-chess.txt, Figure 3 (also docs/definitions.md §7)
-- kind: observation
-- statement: King on λ = (5,5,3,2,1): the SG values of the sub-partitions λ[i,j], written in cell
--   (i,j), are, row by row from the top: 21021 / 03210 / 210 / 10 / 0 (and the P-positions are the
--   cells holding 0). Checked cell by cell on the King records of the sub-partitions.
-- covers: king; the partition (5,5,3,2,1) and its 16 sub-partitions
-- domain: SELECT n FROM king WHERE parts = [5, 5, 3, 2, 1]::SMALLINT[]
WITH g AS (
    SELECT n, parts, [[2, 1, 0, 2, 1], [0, 3, 2, 1, 0], [2, 1, 0], [1, 0], [0]] AS grid
    FROM king WHERE parts = [5, 5, 3, 2, 1]::SMALLINT[]
),
cells AS (
    SELECT *, list_filter(list_transform(parts[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(parts[i + 1])) AS j FROM (SELECT *, unnest(range(len(parts))) AS i FROM g))
)
SELECT 'king' AS game, cells.n, cells.parts, [cells.i, cells.j] AS cell, s.sg, cells.grid[cells.i + 1][cells.j + 1] AS figure
FROM cells
LEFT JOIN king AS s ON record_key(s.n, s.ordinal) = part_key(cells.sub)
WHERE s.sg IS DISTINCT FROM cells.grid[cells.i + 1][cells.j + 1]
