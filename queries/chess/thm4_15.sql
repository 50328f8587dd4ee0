-- id: chess.thm4_15
-- source: impartial-chess.txt, Theorem 4.15, proof
-- kind: erratum
-- statement: Rook, Queen and (King, generalized staircases) are neither domestic nor returnable: G±_Rook((5,4^3))
--   = (4,0), G±_Queen((9,8^4)) = (0,10) and G±_King(G(4;2,2)[0,1]) = (3,0), G(4;2,2)[0,1] =
--   (7,7,5,5,3,3,1,1), are not domestic; G±_Rook((6,5^4)) = (0,1) and (6,5^4)[1,0] has no move to a
--   (0,1)-position; G±_Queen((11^13,10^4)) = (0,1) and its [12,0] has no move to a (0,1)-position;
--   G±_King(G(2;4,3)[1,0]) = (1,0) and G(2;4,3)[2,0] has no move to a (1,0)-position. Checked per
--   witness: the record's pair, its domestic/returnable flag being false, and for the returnable
--   witnesses x that y is a move from x, y is non-terminal and no move from y reaches a position with
--   x's pair (the definition of non-returnable).
-- correction: docs/definitions.md §8.6: Queen (9,8^4) is (10,0), not (0,10); Rook (6,5^4) and Queen (11^13,10^4) are (1,0), not
--   (0,1) (the conclusions stand: no move from y reaches a (1,0)-position); the King example needs
--   G(2;3,4) = (8^3,4^3), the transpose of the printed G(2;4,3), whose [1,0] is a (2,0)-position. The
--   corrected query uses these; the printed form the printed pairs and G(2;4,3).
-- covers: rook, queen, king; the witness records (5,4^3), (9,8^4), (7,7,5,5,3,3,1,1), (6,5^4), (11^13,10^4),
--   (8,8,4,4,4)
-- needs: followers
-- witnesses: WITH w(game, parts, property, pair, y, move, source) AS (VALUES
--   ('rook', [5, 4, 4, 4], 'domestic', [4, 0], NULL, NULL, 'Theorem 4.15'),
--   ('queen', [9, 8, 8, 8, 8], 'domestic', [10, 0], NULL, NULL, 'Theorem 4.15, pair per docs/definitions.md §8.6'),
--   ('king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], NULL, NULL, 'Theorem 4.15: G(4;2,2)[0,1]'),
--   ('rook', [6, 5, 5, 5, 5], 'returnable', [1, 0], [5, 5, 5, 5], [1, 0], 'Theorem 4.15, pair per docs/definitions.md §8.6'),
--   ('queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [1, 0], [11, 10, 10, 10, 10], [12, 0], 'Theorem 4.15, pair per docs/definitions.md §8.6'),
--   ('king', [8, 8, 4, 4, 4], 'returnable', [1, 0], [8, 4, 4, 4], [1, 0], 'Theorem 4.15: G(2;3,4)[1,0], docs/definitions.md §8.6')
--   ),
--   SELECT DISTINCT game || ' ' || parts::VARCHAR AS witness, stored(game, list_sum(parts)) AS present FROM w
-- domain: SELECT n FROM king WHERE parts = [7, 7, 5, 5, 3, 3, 1, 1]::SMALLINT[]
--   UNION ALL SELECT n FROM king WHERE parts = [8, 8, 4, 4, 4]::SMALLINT[]
--   UNION ALL SELECT n FROM queen WHERE parts = [9, 8, 8, 8, 8]::SMALLINT[]
--   UNION ALL SELECT n FROM queen WHERE parts = [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10]::SMALLINT[]
--   UNION ALL SELECT n FROM rook WHERE parts = [5, 4, 4, 4]::SMALLINT[]
--   UNION ALL SELECT n FROM rook WHERE parts = [6, 5, 5, 5, 5]::SMALLINT[]
WITH w(game, parts, property, pair, y, move, source) AS (VALUES
    ('rook', [5, 4, 4, 4], 'domestic', [4, 0], NULL, NULL, 'Theorem 4.15'),
    ('queen', [9, 8, 8, 8, 8], 'domestic', [10, 0], NULL, NULL, 'Theorem 4.15, pair per docs/definitions.md §8.6'),
    ('king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], NULL, NULL, 'Theorem 4.15: G(4;2,2)[0,1]'),
    ('rook', [6, 5, 5, 5, 5], 'returnable', [1, 0], [5, 5, 5, 5], [1, 0], 'Theorem 4.15, pair per docs/definitions.md §8.6'),
    ('queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [1, 0], [11, 10, 10, 10, 10], [12, 0], 'Theorem 4.15, pair per docs/definitions.md §8.6'),
    ('king', [8, 8, 4, 4, 4], 'returnable', [1, 0], [8, 4, 4, 4], [1, 0], 'Theorem 4.15: G(2;3,4)[1,0], docs/definitions.md §8.6')
),
r AS (
    SELECT 'rook' AS game, n, parts, sg, sg_misere, domestic, returnable FROM rook WHERE n IN (17, 26)
    UNION ALL
    SELECT 'queen' AS game, n, parts, sg, sg_misere, domestic, returnable FROM queen WHERE n IN (41, 183)
    UNION ALL
    SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, returnable FROM king WHERE n IN (28, 32)
),
allrec AS (
    SELECT 'king' AS game, parts, sg, sg_misere FROM king
    UNION ALL
    SELECT 'queen' AS game, parts, sg, sg_misere FROM queen
    UNION ALL
    SELECT 'rook' AS game, parts, sg, sg_misere FROM rook
)
SELECT * FROM witness_check('w', 'r', 'allrec')
-- printed form:
WITH w(game, parts, property, pair, y, move, source) AS (VALUES
    ('rook', [5, 4, 4, 4], 'domestic', [4, 0], NULL, NULL, 'as printed'),
    ('queen', [9, 8, 8, 8, 8], 'domestic', [0, 10], NULL, NULL, 'as printed'),
    ('king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], NULL, NULL, 'as printed'),
    ('rook', [6, 5, 5, 5, 5], 'returnable', [0, 1], [5, 5, 5, 5], [1, 0], 'as printed'),
    ('queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [0, 1], [11, 10, 10, 10, 10], [12, 0], 'as printed'),
    ('king', [6, 6, 6, 3, 3, 3, 3], 'returnable', [1, 0], [6, 6, 3, 3, 3, 3], [1, 0], 'as printed: G(2;4,3)')
),
r AS (
    SELECT 'rook' AS game, n, parts, sg, sg_misere, domestic, returnable FROM rook WHERE n IN (17, 26)
    UNION ALL
    SELECT 'queen' AS game, n, parts, sg, sg_misere, domestic, returnable FROM queen WHERE n IN (41, 183)
    UNION ALL
    SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, returnable FROM king WHERE n IN (30, 32)
),
allrec AS (
    SELECT 'king' AS game, parts, sg, sg_misere FROM king
    UNION ALL
    SELECT 'queen' AS game, parts, sg, sg_misere FROM queen
    UNION ALL
    SELECT 'rook' AS game, parts, sg, sg_misere FROM rook
)
SELECT * FROM witness_check('w', 'r', 'allrec')
