-- id: chess.thm4_10_witnesses
-- source: impartial-chess.txt, Theorem 4.10, proof
-- kind: theorem
-- statement: G±_Rook(R(3,3)) = G±_King(R(3,3)) = G±_Rook(G(1;3,3)) = (0,0), so (Rook, rectangles), (King,
--   rectangles) and (Rook, generalized staircases) are not pet (G(1;3,3) = R(3,3) = (3,3,3)).
-- covers: rook, king; the record (3,3,3)
-- needs: record
-- witnesses: WITH w(game, parts, property, pair, source) AS (VALUES
--   ('rook', [3, 3, 3], 'pet', [0, 0], 'Theorem 4.10'),
--   ('king', [3, 3, 3], 'pet', [0, 0], 'Theorem 4.10')
--   ),
--   SELECT DISTINCT game || ' ' || parts::VARCHAR AS witness, stored(game, list_sum(parts)) AS present FROM w
-- domain: WITH w(game, parts, property, pair, source) AS (VALUES
--       ('rook', [3, 3, 3], 'pet', [0, 0], 'Theorem 4.10'),
--       ('king', [3, 3, 3], 'pet', [0, 0], 'Theorem 4.10')
--   ),
--   r AS (
--       SELECT 'rook' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM rook WHERE n IN (9)
--       UNION ALL
--       SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM king WHERE n IN (9)
--   )
--   SELECT r.n FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
WITH w(game, parts, property, pair, source) AS (VALUES
    ('rook', [3, 3, 3], 'pet', [0, 0], 'Theorem 4.10'),
    ('king', [3, 3, 3], 'pet', [0, 0], 'Theorem 4.10')
),
r AS (
    SELECT 'rook' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM rook WHERE n IN (9)
    UNION ALL
    SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM king WHERE n IN (9)
),
checked AS (
    SELECT w.game, r.n, r.parts, w.property AS lacks_claimed, w.source, [r.sg, r.sg_misere] AS pair,
           w.pair AS claimed_pair,
           CASE w.property WHEN 'domestic' THEN r.domestic WHEN 'tame' THEN r.tame WHEN 'pet' THEN r.pet WHEN 'miserable' THEN r.miserable WHEN 'forced' THEN r.forced WHEN 'returnable' THEN r.returnable END AS has_property
    FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
)
SELECT * FROM checked
WHERE has_property OR (claimed_pair IS NOT NULL AND pair <> claimed_pair)
