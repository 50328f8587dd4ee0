-- id: chess.obs3_5
-- source: impartial-chess.txt, Observation 3.5 (from Observation 3.2)
-- kind: observation
-- statement: For every moveset M and λ ≤ β in Young's lattice, lp(DAG_M(λ)) ≤ lp(DAG_M(β)): the
--   longest play (height) is monotone. Checked on every covering pair: β a record, λ = β with one
--   corner cell removed (transitivity gives every pair λ ≤ β).
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; every partition with at least 2 cells
-- domain: SELECT n FROM downright WHERE n > 1 UNION ALL SELECT n FROM pawn WHERE n > 1
--   UNION ALL SELECT n FROM pawn_t WHERE n > 1 UNION ALL SELECT n FROM knight WHERE n > 1
--   UNION ALL SELECT n FROM bishop WHERE n > 1 UNION ALL SELECT n FROM king WHERE n > 1
--   UNION ALL SELECT n FROM rook WHERE n > 1 UNION ALL SELECT n FROM queen WHERE n > 1
WITH t AS (
    SELECT 'downright' AS game, n, parts, height FROM downright
    UNION ALL SELECT 'pawn', n, parts, height FROM pawn
    UNION ALL SELECT 'pawn_t', n, parts, height FROM pawn_t
    UNION ALL SELECT 'knight', n, parts, height FROM knight
    UNION ALL SELECT 'bishop', n, parts, height FROM bishop
    UNION ALL SELECT 'king', n, parts, height FROM king
    UNION ALL SELECT 'rook', n, parts, height FROM rook
    UNION ALL SELECT 'queen', n, parts, height FROM queen
),
rows_ AS (
    SELECT game, n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM t WHERE n > 1
),
covers AS (
    SELECT game, n, parts, height,
           list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                       lambda x: x > 0)::SMALLINT[] AS smaller
    FROM rows_
    WHERE i = len(parts) OR parts[i] > parts[i + 1]
)
SELECT c.game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
FROM covers AS c
JOIN t AS s ON s.game = c.game AND s.parts = c.smaller
WHERE s.height > c.height
