-- id: chess.lemma3_14_cells
-- source: impartial-chess.txt, Lemma 3.14, proof, equation (2)
-- kind: erratum
-- statement: Let r be even, k > 1 and λ = G(k;r,r). Then SG_King(λ[i,j]) is 0 if i and j are both
--   odd, 1 if both are even, and 2 or 3 otherwise (equation (2), which also gives that SG along the
--   first row alternates between 1 and a value in {2,3}).
-- correction: docs/definitions.md §8.7: equation (2) holds only in the first r×r block (0 ≤ i, j ≤ r−1), which is
--   what the proof derives; the corrected query checks those cells, the printed form every cell
--   of λ. (For k = 1 the pattern is not claimed: SG(λ) = 2 there.)
-- covers: king; generalized staircases G(k;r,r) with r even and k ≥ 2, cells of the first r×r block
-- domain: SELECT n FROM king WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
--   AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
--   AND conjugate[-1] = parts[-1] AND conjugate[-1] % 2 = 0 AND distinct_sizes >= 2
WITH g AS (
    SELECT n, parts, distinct_sizes AS k, conjugate[-1] AS r
    FROM king
    WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
      AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
      AND conjugate[-1] = parts[-1] AND conjugate[-1] % 2 = 0 AND distinct_sizes >= 2
),
cells AS (
    SELECT *, list_filter(list_transform(parts[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(r)) AS j FROM (SELECT *, unnest(range(r)) AS i FROM g))
)
SELECT 'king' AS game, cells.n, cells.parts, cells.k, cells.r, [cells.i, cells.j] AS cell, s.sg AS cell_sg
FROM cells
LEFT JOIN king AS s ON record_key(s.n, s.ordinal) = part_key(cells.sub)
WHERE s.sg IS NULL
   OR NOT CASE WHEN cells.i % 2 = 1 AND cells.j % 2 = 1 THEN s.sg = 0
               WHEN cells.i % 2 = 0 AND cells.j % 2 = 0 THEN s.sg = 1
               ELSE s.sg IN (2, 3) END
-- printed form:
WITH g AS (
    SELECT n, parts, distinct_sizes AS k, conjugate[-1] AS r
    FROM king
    WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
      AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
      AND conjugate[-1] = parts[-1] AND conjugate[-1] % 2 = 0 AND distinct_sizes >= 2
),
gi AS (SELECT *, unnest(range(len(parts))) AS i FROM g),
cells AS (
    SELECT *, list_filter(list_transform(parts[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(parts[i + 1])) AS j FROM gi)
)
SELECT 'king' AS game, cells.n, cells.parts, cells.k, cells.r, [cells.i, cells.j] AS cell, s.sg AS cell_sg
FROM cells
JOIN king AS s ON record_key(s.n, s.ordinal) = part_key(cells.sub)
WHERE NOT CASE WHEN cells.i % 2 = 1 AND cells.j % 2 = 1 THEN s.sg = 0
               WHEN cells.i % 2 = 0 AND cells.j % 2 = 0 THEN s.sg = 1
               ELSE s.sg IN (2, 3) END
