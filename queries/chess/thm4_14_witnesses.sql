-- id: chess.thm4_14_witnesses
-- source: impartial-chess.txt, Theorem 4.14, proof (and Theorem 4.9)
-- kind: theorem
-- statement: G±_Knight(G(2;6,6)[1,0]) = (2,1) = G±_Knight((12^5, 6^6)), so Knight and (Knight, generalized
--   staircases) are not tame; (Knight, R(6,5) = 5^6) is not forced (Theorem 4.9), so neither is.
-- covers: knight; the records (12^5, 6^6) and (5^6)
-- needs: record
-- witnesses: WITH w(game, parts, property, pair, source) AS (VALUES
--   ('knight', [12, 12, 12, 12, 12, 6, 6, 6, 6, 6, 6], 'tame', [2, 1], 'Theorem 4.14'),
--   ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Theorem 4.9')
--   ),
--   SELECT DISTINCT game || ' ' || parts::VARCHAR AS witness, stored(game, list_sum(parts)) AS present FROM w
-- domain: WITH w(game, parts, property, pair, source) AS (VALUES
--       ('knight', [12, 12, 12, 12, 12, 6, 6, 6, 6, 6, 6], 'tame', [2, 1], 'Theorem 4.14'),
--       ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Theorem 4.9')
--   ),
--   r AS (
--       SELECT 'knight' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM knight WHERE n IN (30, 96)
--   )
--   SELECT r.n FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
WITH w(game, parts, property, pair, source) AS (VALUES
    ('knight', [12, 12, 12, 12, 12, 6, 6, 6, 6, 6, 6], 'tame', [2, 1], 'Theorem 4.14'),
    ('knight', [5, 5, 5, 5, 5, 5], 'forced', NULL, 'Theorem 4.9')
),
r AS (
    SELECT 'knight' AS game, n, parts, sg, sg_misere, domestic, tame, pet, miserable, forced, returnable FROM knight WHERE n IN (30, 96)
),
checked AS (
    SELECT w.game, r.n, r.parts, w.property AS lacks_claimed, w.source, [r.sg, r.sg_misere] AS pair,
           w.pair AS claimed_pair,
           CASE w.property WHEN 'domestic' THEN r.domestic WHEN 'tame' THEN r.tame WHEN 'pet' THEN r.pet WHEN 'miserable' THEN r.miserable WHEN 'forced' THEN r.forced WHEN 'returnable' THEN r.returnable END AS has_property
    FROM w JOIN r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
)
SELECT * FROM checked
WHERE has_property OR (claimed_pair IS NOT NULL AND pair <> claimed_pair)
