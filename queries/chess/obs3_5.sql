-- id: chess.obs3_5
-- source: impartial-chess.txt, Observation 3.5 (from Observation 3.2)
-- kind: observation
-- statement: For every moveset M and λ ≤ β in Young's lattice, lp(DAG_M(λ)) ≤ lp(DAG_M(β)): the
--   longest play (height) is monotone. Checked on every covering pair: β a record, λ = β with one
--   corner cell removed (transitivity gives every pair λ ≤ β). There are about five covering pairs
--   per record, so to keep the check cheap it examines the records β with n ≤ 40.
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; partitions with 2 ≤ n ≤ 40
-- needs: followers
-- domain: SELECT n FROM downright WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM pawn WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM pawn_t WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM knight WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM bishop WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM king WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM rook WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM queen WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
WITH pairs AS (
    SELECT 'downright' AS game, * FROM lower_covers('downright', 2, 40)
    UNION ALL
    SELECT 'pawn' AS game, * FROM lower_covers('pawn', 2, 40)
    UNION ALL
    SELECT 'pawn_t' AS game, * FROM lower_covers('pawn_t', 2, 40)
    UNION ALL
    SELECT 'knight' AS game, * FROM lower_covers('knight', 2, 40)
    UNION ALL
    SELECT 'bishop' AS game, * FROM lower_covers('bishop', 2, 40)
    UNION ALL
    SELECT 'king' AS game, * FROM lower_covers('king', 2, 40)
    UNION ALL
    SELECT 'rook' AS game, * FROM lower_covers('rook', 2, 40)
    UNION ALL
    SELECT 'queen' AS game, * FROM lower_covers('queen', 2, 40)
)
SELECT * FROM pairs WHERE smaller_height > height
