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
-- domain: SELECT n FROM downright WHERE verify_subject(n) UNION ALL SELECT n FROM knight WHERE verify_subject(n)
--   UNION ALL SELECT n FROM bishop WHERE verify_subject(n) UNION ALL SELECT n FROM king WHERE verify_subject(n)
--   UNION ALL SELECT n FROM rook WHERE verify_subject(n) UNION ALL SELECT n FROM queen WHERE verify_subject(n)
--   UNION ALL SELECT n FROM pawn WHERE verify_subject(n) AND (SELECT count(*) FROM pawn_t) > 0
--   UNION ALL SELECT n FROM pawn_t WHERE verify_subject(n) AND (SELECT count(*) FROM pawn) > 0
-- Each pair is found by integer keys, in ONE hash join per chunk of n (verify_subject): the
-- subjects' conjugate keys (part_key of the list) against the conjugates' record keys, the
-- pieces side by side (one join holds and spills as one; a join per piece held several hash
-- tables at once). The lists of a pair are read only for its counterexamples (partition_at).
WITH subjects AS (
    SELECT 'downright' AS game, 'downright' AS conjugate_game, n, ordinal, part_key(conjugate) AS conjugate_key,
           row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM downright WHERE verify_subject(n) AND rank >= 0
    UNION ALL
    SELECT 'knight' AS game, 'knight' AS conjugate_game, n, ordinal, part_key(conjugate) AS conjugate_key,
           row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM knight WHERE verify_subject(n) AND rank >= 0
    UNION ALL
    SELECT 'bishop' AS game, 'bishop' AS conjugate_game, n, ordinal, part_key(conjugate) AS conjugate_key,
           row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM bishop WHERE verify_subject(n) AND rank >= 0
    UNION ALL
    SELECT 'king' AS game, 'king' AS conjugate_game, n, ordinal, part_key(conjugate) AS conjugate_key,
           row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM king WHERE verify_subject(n) AND rank >= 0
    UNION ALL
    SELECT 'rook' AS game, 'rook' AS conjugate_game, n, ordinal, part_key(conjugate) AS conjugate_key,
           row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM rook WHERE verify_subject(n) AND rank >= 0
    UNION ALL
    SELECT 'queen' AS game, 'queen' AS conjugate_game, n, ordinal, part_key(conjugate) AS conjugate_key,
           row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM queen WHERE verify_subject(n) AND rank >= 0
    UNION ALL
    SELECT 'pawn', 'pawn_t', n, ordinal, part_key(conjugate),
           row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable)
    FROM pawn WHERE verify_subject(n)
),
conjugates AS (
    SELECT 'downright' AS game, record_key(n, ordinal) AS key, ordinal, row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM downright WHERE verify_subject(n) AND rank <= 0
    UNION ALL
    SELECT 'knight' AS game, record_key(n, ordinal) AS key, ordinal, row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM knight WHERE verify_subject(n) AND rank <= 0
    UNION ALL
    SELECT 'bishop' AS game, record_key(n, ordinal) AS key, ordinal, row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM bishop WHERE verify_subject(n) AND rank <= 0
    UNION ALL
    SELECT 'king' AS game, record_key(n, ordinal) AS key, ordinal, row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM king WHERE verify_subject(n) AND rank <= 0
    UNION ALL
    SELECT 'rook' AS game, record_key(n, ordinal) AS key, ordinal, row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM rook WHERE verify_subject(n) AND rank <= 0
    UNION ALL
    SELECT 'queen' AS game, record_key(n, ordinal) AS key, ordinal, row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable) AS record
    FROM queen WHERE verify_subject(n) AND rank <= 0
    UNION ALL
    SELECT 'pawn_t', record_key(n, ordinal), ordinal, row(sg, sg_misere, nodes, leaves, states, height, domestic, tame, pet, miserable, forced, returnable)
    FROM pawn_t WHERE verify_subject(n)
)
SELECT s.game, s.n, partition_at(s.n, s.ordinal) AS parts, s.conjugate_game,
       partition_at(s.n, c.ordinal) AS conjugate, s.record, c.record AS conjugate_record
FROM subjects AS s
LEFT JOIN conjugates AS c ON c.game = s.conjugate_game AND c.key = s.conjugate_key
WHERE s.record IS DISTINCT FROM c.record
