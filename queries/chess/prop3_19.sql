-- id: chess.prop3_19
-- source: impartial-chess.txt, Proposition 3.19
-- kind: proposition
-- statement: For positive integers ℓ, k and every cell (i,j) of G = G(k;2^ℓ,2^ℓ), with
--   f(i,j) = k − 1 − ⌊i/2^ℓ⌋ − ⌊j/2^ℓ⌋: SG_Rook(G[i,j]) = 2^ℓ·f(i,j) + ((−i−1) ⊕ (−j−1)) mod 2^ℓ
--   (equation (5); ⊕ on two's complement integers). Furthermore, within each row i the values at the
--   cells with f(i,j) = τ form the interval S_τ = [τ·2^ℓ, (τ+1)·2^ℓ − 1]. Checked cell by cell on the
--   Rook records of the sub-partitions G[i,j].
-- covers: rook; generalized staircases G(k;2^ℓ,2^ℓ), ℓ ≥ 1, all their cells
-- domain: SELECT n FROM rook WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
--   AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
--   AND conjugate[-1] = parts[-1] AND parts[-1] >= 2 AND (parts[-1] & (parts[-1] - 1)) = 0
WITH g AS (
    SELECT n, parts, distinct_sizes AS k, parts[-1] AS s
    FROM rook
    WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
      AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
      AND conjugate[-1] = parts[-1] AND parts[-1] >= 2 AND (parts[-1] & (parts[-1] - 1)) = 0
),
gi AS (SELECT *, unnest(range(len(parts))) AS i FROM g),
cells AS (
    SELECT *, k - 1 - i // s - j // s AS f,
           list_filter(list_transform(parts[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(parts[i + 1])) AS j FROM gi)
),
vals AS (
    SELECT cells.*, r.sg, s * f + xor(-i - 1, -j - 1) % s AS expected
    FROM cells LEFT JOIN rook AS r ON record_key(r.n, r.ordinal) = part_key(cells.sub)
)
SELECT 'rook' AS game, n, parts, k, s AS side, [i, j] AS cell, sg, expected, 'equation (5)' AS claim
FROM vals
WHERE sg IS DISTINCT FROM expected
UNION ALL
SELECT 'rook', n, parts, k, s, [i, NULL], NULL, f, 'S_tau is an interval in row i'
FROM vals
GROUP BY n, parts, k, s, i, f
HAVING min(sg) IS DISTINCT FROM f * s OR max(sg) IS DISTINCT FROM (f + 1) * s - 1 OR count(DISTINCT sg) <> s
