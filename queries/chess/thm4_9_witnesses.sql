-- id: chess.thm4_9_witnesses
-- source: impartial-chess.txt, Theorem 4.9, proof
-- kind: erratum
-- statement: The games (Pawn, (2,2,2,1)), (Knight, R(6,5) = 5^6), (King, S(4)), (Pawn, S(4)) and (Downright,
--   G(2;1,2) = (4,2)) are not forced, so the families of Theorem 4.9 are not forced.
-- correction: docs/definitions.md §8.4: the witness (2,2,2,1) holds for the transposed pawn (pawn_t); for the Pawn of Definition
--   3.1 (our pawn) it is forced, and the witness is (4,3). The printed form checks (pawn, (2,2,2,1)).
-- covers: pawn, pawn_t, knight, king, downright; the witness records
-- needs: record
-- witnesses: WITH w(game, parts, property, pair, source) AS (VALUES
--   ('pawn_t', [2, 2, 2, 1], 'forced', NULL, 'Theorem 4.9 (pawn_t, docs/definitions.md §8.4)'),
--   ('pawn', [4, 3], 'forced', NULL, 'Theorem 4.9 (pawn, docs/definitions.md §8.4)'),
--   ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Theorem 4.9'),
--   ('king', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
--   ('pawn', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
--   ('pawn_t', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
--   ('downright', [4, 2], 'forced', NULL, 'Theorem 4.9')
--   ),
--   SELECT DISTINCT game || ' ' || parts::VARCHAR AS witness, stored(game, list_sum(parts)) AS present FROM w
-- domain: WITH w(game, parts, property, pair, source) AS (VALUES
--       ('pawn_t', [2, 2, 2, 1], 'forced', NULL, 'Theorem 4.9 (pawn_t, docs/definitions.md §8.4)'),
--       ('pawn', [4, 3], 'forced', NULL, 'Theorem 4.9 (pawn, docs/definitions.md §8.4)'),
--       ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Theorem 4.9'),
--       ('king', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
--       ('pawn', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
--       ('pawn_t', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
--       ('downright', [4, 2], 'forced', NULL, 'Theorem 4.9')
--   ),
--   r AS (
--       SELECT 'pawn_t' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn_t WHERE n IN (7, 10)
--       UNION ALL
--       SELECT 'pawn' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn WHERE n IN (7, 10)
--       UNION ALL
--       SELECT 'knight' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM knight WHERE n IN (30)
--       UNION ALL
--       SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM king WHERE n IN (10)
--       UNION ALL
--       SELECT 'downright' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM downright WHERE n IN (6)
--   )
--   SELECT r.n FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
WITH w(game, parts, property, pair, source) AS (VALUES
    ('pawn_t', [2, 2, 2, 1], 'forced', NULL, 'Theorem 4.9 (pawn_t, docs/definitions.md §8.4)'),
    ('pawn', [4, 3], 'forced', NULL, 'Theorem 4.9 (pawn, docs/definitions.md §8.4)'),
    ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Theorem 4.9'),
    ('king', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
    ('pawn', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
    ('pawn_t', [4, 3, 2, 1], 'forced', NULL, 'Theorem 4.9'),
    ('downright', [4, 2], 'forced', NULL, 'Theorem 4.9')
),
r AS (
    SELECT 'pawn_t' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn_t WHERE n IN (7, 10)
    UNION ALL
    SELECT 'pawn' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn WHERE n IN (7, 10)
    UNION ALL
    SELECT 'knight' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM knight WHERE n IN (30)
    UNION ALL
    SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM king WHERE n IN (10)
    UNION ALL
    SELECT 'downright' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM downright WHERE n IN (6)
),
checked AS (
    SELECT w.game, r.n, r.parts, w.property AS lacks_claimed, w.source, [r.sg, r.sg_misere] AS pair,
           w.pair AS claimed_pair,
           CASE w.property WHEN 'domestic' THEN r.domestic WHEN 'tame' THEN r.tame WHEN 'pet' THEN r.pet WHEN 'miserable' THEN r.miserable WHEN 'forced' THEN r.forced WHEN 'returnable' THEN r.returnable END AS has_property
    FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
)
SELECT * FROM checked
WHERE has_property OR (claimed_pair IS NOT NULL AND pair <> claimed_pair)
-- printed form:
WITH w(game, parts, property, pair, source) AS (VALUES
    ('pawn', [2, 2, 2, 1], 'forced', NULL, 'Theorem 4.9 as printed')
),
r AS (
    SELECT 'pawn' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn WHERE n IN (7)
),
checked AS (
    SELECT w.game, r.n, r.parts, w.property AS lacks_claimed, w.source, [r.sg, r.sg_misere] AS pair,
           w.pair AS claimed_pair,
           CASE w.property WHEN 'domestic' THEN r.domestic WHEN 'tame' THEN r.tame WHEN 'pet' THEN r.pet WHEN 'miserable' THEN r.miserable WHEN 'forced' THEN r.forced WHEN 'returnable' THEN r.returnable END AS has_property
    FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
)
SELECT * FROM checked
WHERE has_property OR (claimed_pair IS NOT NULL AND pair <> claimed_pair)
