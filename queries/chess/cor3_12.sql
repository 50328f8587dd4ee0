-- id: chess.cor3_12
-- source: impartial-chess.txt, Corollary 3.12
-- kind: corollary
-- statement: Let r be even and c, k arbitrary. Then G(k;r,c)[i,j] ∈ P_King iff i·(c(k − ⌊i/r⌋) − j) is
--   odd. Checked cell by cell: for every King record of a generalized staircase with r even and every
--   cell (i,j) of it, on the King record of the sub-partition λ[i,j].
-- covers: king; generalized staircases G(k;r,c) with r even, all their cells
-- domain: SELECT n FROM king WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
--   AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
--   AND conjugate[-1] % 2 = 0
WITH g AS (
    SELECT n, parts, distinct_sizes AS k, conjugate[-1] AS r, parts[-1] AS c
    FROM king
    WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
      AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
      AND conjugate[-1] % 2 = 0
),
gi AS (SELECT *, unnest(range(len(parts))) AS i FROM g),
cells AS (
    SELECT *, list_filter(list_transform(parts[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(parts[i + 1])) AS j FROM gi)
)
SELECT 'king' AS game, cells.n, cells.parts, cells.k, cells.r, cells.c, [cells.i, cells.j] AS cell,
       cells.sub, s.sg AS cell_sg
FROM cells
LEFT JOIN king AS s ON record_key(s.n, s.ordinal) = part_key(cells.sub)
WHERE (s.sg = 0) IS DISTINCT FROM ((cells.i * (cells.c * (cells.k - cells.i // cells.r) - cells.j)) % 2 = 1)
