-- id: chess.obs3_4
-- source: impartial-chess.txt, Observation 3.4 (Conjugate invariance)
-- kind: observation
-- statement: (M, λ) is game-equivalent to (M⁻¹, λ'), M⁻¹ the transposed moveset. For the symmetric
--   movesets (Downright, Knight, Bishop, King, Rook, Queen) the game on λ and the game on λ' have
--   the same record; the transposed Pawn is pawn_t, so Pawn on λ and pawn_t on λ' have the same
--   record. Compared: sg, sg_misere, nodes, leaves, states, height and the six CGH flags (the
--   conjugation λ[i,j] ↦ λ'[j,i] is a bijection of positions, so states is preserved too). Each
--   unordered pair is compared once (symmetric movesets: λ1 ≥ r; Pawn on λ against pawn_t on λ').
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; every partition
-- needs: same n
-- domain: SELECT n FROM downright UNION ALL SELECT n FROM knight UNION ALL SELECT n FROM bishop
--   UNION ALL SELECT n FROM king UNION ALL SELECT n FROM rook UNION ALL SELECT n FROM queen
--   UNION ALL SELECT n FROM pawn WHERE (SELECT count(*) FROM pawn_t) > 0
--   UNION ALL SELECT n FROM pawn_t WHERE (SELECT count(*) FROM pawn) > 0
WITH pairs AS (
    SELECT 'downright' AS game, a.n, a.parts, 'downright' AS conjugate_game, b.parts AS conjugate,
           row(a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height,
               a.domestic, a.tame, a.pet, a.miserable, a.forced, a.returnable) AS record,
           row(b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height,
               b.domestic, b.tame, b.pet, b.miserable, b.forced, b.returnable) AS conjugate_record
    FROM downright AS a JOIN downright AS b ON b.parts = a.conjugate WHERE a.rank >= 0
    UNION ALL
    SELECT 'knight' AS game, a.n, a.parts, 'knight' AS conjugate_game, b.parts AS conjugate,
           row(a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height,
               a.domestic, a.tame, a.pet, a.miserable, a.forced, a.returnable) AS record,
           row(b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height,
               b.domestic, b.tame, b.pet, b.miserable, b.forced, b.returnable) AS conjugate_record
    FROM knight AS a JOIN knight AS b ON b.parts = a.conjugate WHERE a.rank >= 0
    UNION ALL
    SELECT 'bishop' AS game, a.n, a.parts, 'bishop' AS conjugate_game, b.parts AS conjugate,
           row(a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height,
               a.domestic, a.tame, a.pet, a.miserable, a.forced, a.returnable) AS record,
           row(b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height,
               b.domestic, b.tame, b.pet, b.miserable, b.forced, b.returnable) AS conjugate_record
    FROM bishop AS a JOIN bishop AS b ON b.parts = a.conjugate WHERE a.rank >= 0
    UNION ALL
    SELECT 'king' AS game, a.n, a.parts, 'king' AS conjugate_game, b.parts AS conjugate,
           row(a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height,
               a.domestic, a.tame, a.pet, a.miserable, a.forced, a.returnable) AS record,
           row(b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height,
               b.domestic, b.tame, b.pet, b.miserable, b.forced, b.returnable) AS conjugate_record
    FROM king AS a JOIN king AS b ON b.parts = a.conjugate WHERE a.rank >= 0
    UNION ALL
    SELECT 'rook' AS game, a.n, a.parts, 'rook' AS conjugate_game, b.parts AS conjugate,
           row(a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height,
               a.domestic, a.tame, a.pet, a.miserable, a.forced, a.returnable) AS record,
           row(b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height,
               b.domestic, b.tame, b.pet, b.miserable, b.forced, b.returnable) AS conjugate_record
    FROM rook AS a JOIN rook AS b ON b.parts = a.conjugate WHERE a.rank >= 0
    UNION ALL
    SELECT 'queen' AS game, a.n, a.parts, 'queen' AS conjugate_game, b.parts AS conjugate,
           row(a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height,
               a.domestic, a.tame, a.pet, a.miserable, a.forced, a.returnable) AS record,
           row(b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height,
               b.domestic, b.tame, b.pet, b.miserable, b.forced, b.returnable) AS conjugate_record
    FROM queen AS a JOIN queen AS b ON b.parts = a.conjugate WHERE a.rank >= 0
    UNION ALL
    SELECT 'pawn' AS game, a.n, a.parts, 'pawn_t' AS conjugate_game, b.parts AS conjugate,
           row(a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height,
               a.domestic, a.tame, a.pet, a.miserable, a.forced, a.returnable) AS record,
           row(b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height,
               b.domestic, b.tame, b.pet, b.miserable, b.forced, b.returnable) AS conjugate_record
    FROM pawn AS a JOIN pawn_t AS b ON b.parts = a.conjugate
)
SELECT * FROM pairs WHERE record IS DISTINCT FROM conjugate_record
