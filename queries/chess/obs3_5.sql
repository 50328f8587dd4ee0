-- id: chess.obs3_5
-- source: impartial-chess.txt, Observation 3.5 (from Observation 3.2)
-- kind: observation
-- statement: For every moveset M and λ ≤ β in Young's lattice, lp(DAG_M(λ)) ≤ lp(DAG_M(β)): the
--   longest play (height) is monotone. Checked on every covering pair: β a record, λ = β with one
--   corner cell removed (transitivity gives every pair λ ≤ β). There are about five covering pairs
--   per record, so to keep the check cheap it examines the records β with n ≤ 40.
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; partitions with 2 ≤ n ≤ 40
-- needs: followers
-- domain: SELECT n FROM (SELECT n FROM downright UNION ALL SELECT n FROM pawn UNION ALL SELECT n FROM pawn_t
--   UNION ALL SELECT n FROM knight UNION ALL SELECT n FROM bishop UNION ALL SELECT n FROM king
--   UNION ALL SELECT n FROM rook UNION ALL SELECT n FROM queen)
--   WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
WITH boards AS (
    SELECT 'downright' AS game, n, ordinal, parts, height FROM downright
    UNION ALL SELECT 'pawn', n, ordinal, parts, height FROM pawn
    UNION ALL SELECT 'pawn_t', n, ordinal, parts, height FROM pawn_t
    UNION ALL SELECT 'knight', n, ordinal, parts, height FROM knight
    UNION ALL SELECT 'bishop', n, ordinal, parts, height FROM bishop
    UNION ALL SELECT 'king', n, ordinal, parts, height FROM king
    UNION ALL SELECT 'rook', n, ordinal, parts, height FROM rook
    UNION ALL SELECT 'queen', n, ordinal, parts, height FROM queen
)
SELECT * FROM lower_covers('boards', 2, 40) WHERE smaller_height > height
