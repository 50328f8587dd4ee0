-- id: chess.prop3_6
-- source: impartial-chess.txt, Proposition 3.6
-- kind: proposition
-- statement: For every impartial chess game (M, λ), SG_M(λ) ≤ lp(DAG_M(λ)), the length of the
--   longest play (the record's height).
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; every partition
-- needs: record
-- domain: SELECT n FROM downright UNION ALL SELECT n FROM pawn UNION ALL SELECT n FROM pawn_t
--   UNION ALL SELECT n FROM knight UNION ALL SELECT n FROM bishop UNION ALL SELECT n FROM king
--   UNION ALL SELECT n FROM rook UNION ALL SELECT n FROM queen
SELECT 'downright' AS game, n, parts, sg, height FROM downright WHERE sg > height
UNION ALL SELECT 'pawn', n, parts, sg, height FROM pawn WHERE sg > height
UNION ALL SELECT 'pawn_t', n, parts, sg, height FROM pawn_t WHERE sg > height
UNION ALL SELECT 'knight', n, parts, sg, height FROM knight WHERE sg > height
UNION ALL SELECT 'bishop', n, parts, sg, height FROM bishop WHERE sg > height
UNION ALL SELECT 'king', n, parts, sg, height FROM king WHERE sg > height
UNION ALL SELECT 'rook', n, parts, sg, height FROM rook WHERE sg > height
UNION ALL SELECT 'queen', n, parts, sg, height FROM queen WHERE sg > height
