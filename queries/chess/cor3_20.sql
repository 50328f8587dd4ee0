-- id: chess.cor3_20
-- source: impartial-chess.txt, Corollary 3.20
-- kind: corollary
-- statement: For k, ℓ and every cell (i,j) of G = G(k;2^ℓ,2^ℓ): SG_Rook(G) = 2^ℓ·(k − 1) and, more
--   generally, SG_Rook(G[i,j]) = 2^ℓ·(k − 1 − ⌊i/2^ℓ⌋ − ⌊j/2^ℓ⌋) + ((−i−1) ⊕ (−j−1)) mod 2^ℓ. The
--   corollary does not require ℓ > 0, so ℓ = 0 (staircases G(k;1,1) = S(k)) is included. Checked cell
--   by cell on the Rook records of the sub-partitions G[i,j].
-- covers: rook; generalized staircases G(k;2^ℓ,2^ℓ), ℓ ≥ 0 (staircases included), all their cells
-- domain: SELECT n FROM rook WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
--   AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
--   AND conjugate[-1] = parts[-1] AND (parts[-1] & (parts[-1] - 1)) = 0
WITH g AS (
    SELECT n, parts, distinct_sizes AS k, parts[-1] AS s
    FROM rook
    WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
      AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
      AND conjugate[-1] = parts[-1] AND (parts[-1] & (parts[-1] - 1)) = 0
),
gi AS (SELECT *, unnest(range(len(parts))) AS i FROM g),
cells AS (
    SELECT *, list_filter(list_transform(parts[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(parts[i + 1])) AS j FROM gi)
)
SELECT 'rook' AS game, cells.n, cells.parts, cells.k, cells.s AS side, [cells.i, cells.j] AS cell, r.sg,
       cells.s * (cells.k - 1 - cells.i // cells.s - cells.j // cells.s)
           + xor(-cells.i - 1, -cells.j - 1) % cells.s AS expected
FROM cells
LEFT JOIN rook AS r ON record_key(r.n, r.ordinal) = part_key(cells.sub)
WHERE r.sg IS DISTINCT FROM cells.s * (cells.k - 1 - cells.i // cells.s - cells.j // cells.s)
                            + xor(-cells.i - 1, -cells.j - 1) % cells.s
