-- id: chess.table1_witnesses
-- source: impartial-chess.txt, Table 1 (and Figure 7)
-- kind: theorem
-- statement: The negative parts of Table 1: each cell that excludes a property (M: not pet; D: not tame; N: not
--   domestic; R: not forced; N': not returnable) has a family member lacking it. One witness record per
--   claim, lacking the property (and with the stated Conway pair where one is given). Witnesses are the
--   paper's (Theorems 4.9, 4.10, 4.13-4.15, pairs corrected per docs/definitions.md §8.4, §8.6), except two chosen by
--   this catalogue where the paper gives none (the smallest such records): Downright (4,4,2,1,1) =
--   (2,1), not tame, and Queen (4^6) = (0,0), not pet.
-- covers: downright, pawn, pawn_t, knight, rook, queen, king; the witness records
-- needs: record
-- witnesses: WITH w(game, parts, property, pair, source) AS (VALUES
--   ('downright', [4, 4, 2, 1, 1], 'tame', [2, 1], 'Y+ D: smallest non-tame record (catalogue)'),
--   ('downright', [4, 2], 'forced', NULL, 'Y+ and G R: Theorem 4.9'),
--   ('pawn', [4, 3], 'forced', NULL, 'Y+ R: Theorem 4.9 (docs/definitions.md §8.4)'),
--   ('pawn_t', [2, 2, 2, 1], 'forced', NULL, 'Y+ R: Theorem 4.9'),
--   ('pawn', [4, 3, 2, 1], 'forced', NULL, 'G and S R: Theorem 4.9'),
--   ('pawn_t', [4, 3, 2, 1], 'forced', NULL, 'G and S R: Theorem 4.9'),
--   ('knight', [12, 12, 12, 12, 12, 6, 6, 6, 6, 6, 6], 'tame', [2, 1], 'Y+ and G D: Theorem 4.14'),
--   ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Y+, G and R R: Theorem 4.9'),
--   ('rook', [5, 4, 4, 4], 'domestic', [4, 0], 'Y+ N: Theorem 4.15'),
--   ('rook', [6, 5, 5, 5, 5], 'returnable', [1, 0], 'Y+ not returnable (N-prime): Theorem 4.15 (pair per docs/definitions.md §8.6)'),
--   ('rook', [3, 3, 3], 'pet', [0, 0], 'G and R M: Theorem 4.10'),
--   ('queen', [9, 8, 8, 8, 8], 'domestic', [10, 0], 'Y+ N: Theorem 4.15 (pair per docs/definitions.md §8.6)'),
--   ('queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [1, 0], 'Y+ not returnable (N-prime): Theorem 4.15 (pair per docs/definitions.md §8.6)'),
--   ('queen', [4, 4, 4, 4, 4, 4], 'pet', [0, 0], 'G and R M: smallest non-pet rectangle (catalogue)'),
--   ('queen', [3, 3, 3], 'forced', NULL, 'G and R R: Theorem 4.13 proof'),
--   ('king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], 'Y+ and G N: Theorem 4.15'),
--   ('king', [8, 8, 4, 4, 4], 'returnable', [1, 0], 'Y+ and G not returnable (N-prime): Theorem 4.15 (G(2;3,4), docs/definitions.md §8.6)'),
--   ('king', [3, 3, 3], 'pet', [0, 0], 'R M: Theorem 4.10'),
--   ('king', [4, 3, 2, 1], 'forced', NULL, 'S R: Theorem 4.9')
--   ),
--   SELECT DISTINCT game || ' ' || parts::VARCHAR AS witness, stored(game, list_sum(parts)) AS present FROM w
-- domain: WITH w(game, parts, property, pair, source) AS (VALUES
--       ('downright', [4, 4, 2, 1, 1], 'tame', [2, 1], 'Y+ D: smallest non-tame record (catalogue)'),
--       ('downright', [4, 2], 'forced', NULL, 'Y+ and G R: Theorem 4.9'),
--       ('pawn', [4, 3], 'forced', NULL, 'Y+ R: Theorem 4.9 (docs/definitions.md §8.4)'),
--       ('pawn_t', [2, 2, 2, 1], 'forced', NULL, 'Y+ R: Theorem 4.9'),
--       ('pawn', [4, 3, 2, 1], 'forced', NULL, 'G and S R: Theorem 4.9'),
--       ('pawn_t', [4, 3, 2, 1], 'forced', NULL, 'G and S R: Theorem 4.9'),
--       ('knight', [12, 12, 12, 12, 12, 6, 6, 6, 6, 6, 6], 'tame', [2, 1], 'Y+ and G D: Theorem 4.14'),
--       ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Y+, G and R R: Theorem 4.9'),
--       ('rook', [5, 4, 4, 4], 'domestic', [4, 0], 'Y+ N: Theorem 4.15'),
--       ('rook', [6, 5, 5, 5, 5], 'returnable', [1, 0], 'Y+ not returnable (N-prime): Theorem 4.15 (pair per docs/definitions.md §8.6)'),
--       ('rook', [3, 3, 3], 'pet', [0, 0], 'G and R M: Theorem 4.10'),
--       ('queen', [9, 8, 8, 8, 8], 'domestic', [10, 0], 'Y+ N: Theorem 4.15 (pair per docs/definitions.md §8.6)'),
--       ('queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [1, 0], 'Y+ not returnable (N-prime): Theorem 4.15 (pair per docs/definitions.md §8.6)'),
--       ('queen', [4, 4, 4, 4, 4, 4], 'pet', [0, 0], 'G and R M: smallest non-pet rectangle (catalogue)'),
--       ('queen', [3, 3, 3], 'forced', NULL, 'G and R R: Theorem 4.13 proof'),
--       ('king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], 'Y+ and G N: Theorem 4.15'),
--       ('king', [8, 8, 4, 4, 4], 'returnable', [1, 0], 'Y+ and G not returnable (N-prime): Theorem 4.15 (G(2;3,4), docs/definitions.md §8.6)'),
--       ('king', [3, 3, 3], 'pet', [0, 0], 'R M: Theorem 4.10'),
--       ('king', [4, 3, 2, 1], 'forced', NULL, 'S R: Theorem 4.9')
--   ),
--   r AS (
--       SELECT 'downright' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM downright WHERE n IN (6, 12)
--       UNION ALL
--       SELECT 'pawn' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn WHERE n IN (7, 10)
--       UNION ALL
--       SELECT 'pawn_t' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn_t WHERE n IN (7, 10)
--       UNION ALL
--       SELECT 'knight' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM knight WHERE n IN (30, 96)
--       UNION ALL
--       SELECT 'rook' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM rook WHERE n IN (9, 17, 26)
--       UNION ALL
--       SELECT 'queen' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM queen WHERE n IN (9, 24, 41, 183)
--       UNION ALL
--       SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM king WHERE n IN (9, 10, 28, 32)
--   )
--   SELECT r.n FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
WITH w(game, parts, property, pair, source) AS (VALUES
    ('downright', [4, 4, 2, 1, 1], 'tame', [2, 1], 'Y+ D: smallest non-tame record (catalogue)'),
    ('downright', [4, 2], 'forced', NULL, 'Y+ and G R: Theorem 4.9'),
    ('pawn', [4, 3], 'forced', NULL, 'Y+ R: Theorem 4.9 (docs/definitions.md §8.4)'),
    ('pawn_t', [2, 2, 2, 1], 'forced', NULL, 'Y+ R: Theorem 4.9'),
    ('pawn', [4, 3, 2, 1], 'forced', NULL, 'G and S R: Theorem 4.9'),
    ('pawn_t', [4, 3, 2, 1], 'forced', NULL, 'G and S R: Theorem 4.9'),
    ('knight', [12, 12, 12, 12, 12, 6, 6, 6, 6, 6, 6], 'tame', [2, 1], 'Y+ and G D: Theorem 4.14'),
    ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Y+, G and R R: Theorem 4.9'),
    ('rook', [5, 4, 4, 4], 'domestic', [4, 0], 'Y+ N: Theorem 4.15'),
    ('rook', [6, 5, 5, 5, 5], 'returnable', [1, 0], 'Y+ not returnable (N-prime): Theorem 4.15 (pair per docs/definitions.md §8.6)'),
    ('rook', [3, 3, 3], 'pet', [0, 0], 'G and R M: Theorem 4.10'),
    ('queen', [9, 8, 8, 8, 8], 'domestic', [10, 0], 'Y+ N: Theorem 4.15 (pair per docs/definitions.md §8.6)'),
    ('queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [1, 0], 'Y+ not returnable (N-prime): Theorem 4.15 (pair per docs/definitions.md §8.6)'),
    ('queen', [4, 4, 4, 4, 4, 4], 'pet', [0, 0], 'G and R M: smallest non-pet rectangle (catalogue)'),
    ('queen', [3, 3, 3], 'forced', NULL, 'G and R R: Theorem 4.13 proof'),
    ('king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], 'Y+ and G N: Theorem 4.15'),
    ('king', [8, 8, 4, 4, 4], 'returnable', [1, 0], 'Y+ and G not returnable (N-prime): Theorem 4.15 (G(2;3,4), docs/definitions.md §8.6)'),
    ('king', [3, 3, 3], 'pet', [0, 0], 'R M: Theorem 4.10'),
    ('king', [4, 3, 2, 1], 'forced', NULL, 'S R: Theorem 4.9')
),
r AS (
    SELECT 'downright' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM downright WHERE n IN (6, 12)
    UNION ALL
    SELECT 'pawn' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn WHERE n IN (7, 10)
    UNION ALL
    SELECT 'pawn_t' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM pawn_t WHERE n IN (7, 10)
    UNION ALL
    SELECT 'knight' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM knight WHERE n IN (30, 96)
    UNION ALL
    SELECT 'rook' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM rook WHERE n IN (9, 17, 26)
    UNION ALL
    SELECT 'queen' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM queen WHERE n IN (9, 24, 41, 183)
    UNION ALL
    SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM king WHERE n IN (9, 10, 28, 32)
),
checked AS (
    SELECT w.game, r.n, r.parts, w.property AS lacks_claimed, w.source, [r.sg, r.sg_misere] AS pair,
           w.pair AS claimed_pair,
           CASE w.property WHEN 'domestic' THEN r.domestic WHEN 'tame' THEN r.tame WHEN 'pet' THEN r.pet WHEN 'miserable' THEN r.miserable WHEN 'forced' THEN r.forced WHEN 'returnable' THEN r.returnable END AS has_property
    FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
)
SELECT * FROM checked
WHERE has_property OR (claimed_pair IS NOT NULL AND pair <> claimed_pair)
