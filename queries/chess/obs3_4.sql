-- id: chess.obs3_4
-- source: impartial-chess.txt, Observation 3.4 (Conjugate invariance)
-- kind: observation
-- statement: (M, λ) is game-equivalent to (M⁻¹, λ'), M⁻¹ the transposed moveset. For the symmetric
--   movesets (Downright, Knight, Bishop, King, Rook, Queen) the game on λ and the game on λ' have
--   the same record; the transposed Pawn is pawn_t, so Pawn on λ and pawn_t on λ' have the same
--   record. Compared: sg, sg_misere, nodes, leaves, states, height and the six CGH flags (the
--   conjugation λ[i,j] ↦ λ'[j,i] is a bijection of positions, so states is preserved too).
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; every partition
-- domain: SELECT n FROM downright UNION ALL SELECT n FROM knight UNION ALL SELECT n FROM bishop
--   UNION ALL SELECT n FROM king UNION ALL SELECT n FROM rook UNION ALL SELECT n FROM queen
--   UNION ALL SELECT n FROM pawn WHERE (SELECT count(*) FROM pawn_t) > 0
--   UNION ALL SELECT n FROM pawn_t WHERE (SELECT count(*) FROM pawn) > 0
WITH t AS (
    SELECT 'downright' AS game, 'downright' AS partner, n, parts, conjugate,
           row(sg, sg_misere, nodes, leaves, states, height,
               domestic, tame, pet, miserable, forced, returnable) AS v
    FROM downright
    UNION ALL SELECT 'knight', 'knight', n, parts, conjugate, row(sg, sg_misere, nodes, leaves, states, height,
        domestic, tame, pet, miserable, forced, returnable) FROM knight
    UNION ALL SELECT 'bishop', 'bishop', n, parts, conjugate, row(sg, sg_misere, nodes, leaves, states, height,
        domestic, tame, pet, miserable, forced, returnable) FROM bishop
    UNION ALL SELECT 'king', 'king', n, parts, conjugate, row(sg, sg_misere, nodes, leaves, states, height,
        domestic, tame, pet, miserable, forced, returnable) FROM king
    UNION ALL SELECT 'rook', 'rook', n, parts, conjugate, row(sg, sg_misere, nodes, leaves, states, height,
        domestic, tame, pet, miserable, forced, returnable) FROM rook
    UNION ALL SELECT 'queen', 'queen', n, parts, conjugate, row(sg, sg_misere, nodes, leaves, states, height,
        domestic, tame, pet, miserable, forced, returnable) FROM queen
    UNION ALL SELECT 'pawn', 'pawn_t', n, parts, conjugate, row(sg, sg_misere, nodes, leaves, states, height,
        domestic, tame, pet, miserable, forced, returnable) FROM pawn
    UNION ALL SELECT 'pawn_t', 'pawn', n, parts, conjugate, row(sg, sg_misere, nodes, leaves, states, height,
        domestic, tame, pet, miserable, forced, returnable) FROM pawn_t
)
SELECT a.game, a.n, a.parts, a.v AS record, b.game AS conjugate_game, b.parts AS conjugate,
       b.v AS conjugate_record
FROM t AS a
JOIN t AS b ON b.game = a.partner AND b.parts = a.conjugate
WHERE a.v IS DISTINCT FROM b.v
