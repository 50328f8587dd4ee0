-- description: Smallest witness per game for every region of the CGH classification
--  (impartial-chess.txt, Figure 7 and Table 1). Class 1 (nested): P = pet, M = miserable not pet,
--  T = tame not miserable, D = domestic not tame, N = not domestic; class 2: F = forced,
--  R = returnable not forced, N' = not returnable. A record is the game started at its partition,
--  so its flags place it in one region. One row per (game, region), 15 regions, with the smallest
--  partition (by n, then parts) in the region and the number of records there, NULL/0 when none up
--  to the bound. figure7: the region's status in Figure 7 - 'occupied' (games listed there),
--  'unknown' (labelled unknown: D∩F, N∩F, N∩R, M∩N', T∩N', D∩N'), or 'empty' for P∩N', which is
--  not drawn: pet implies returnable (a non-terminal (0,1)-position of a pet game moves only to
--  (1,0)- or (k,k)-positions, k >= 2, each with a move to sg 0, i.e. to a (0,1)-position; dually
--  for (1,0)). A witness in an 'unknown' region is a new occupant; one in P∩N' is a bug.
--  Read from the summaries: every (game, n) run, whatever its run kept, in seconds on any store.
WITH classified AS (
    SELECT game, n, r.records, r.first, r.first_sg, r.first_sg_misere,
        CASE WHEN r.pet THEN 'P' WHEN r.miserable THEN 'M' WHEN r.tame THEN 'T'
             WHEN r.domestic THEN 'D' ELSE 'N' END AS class1,
        CASE WHEN r.forced THEN 'F' WHEN r.returnable THEN 'R' ELSE 'N''' END AS class2
    FROM (SELECT game, n, unnest(regions) AS r FROM summaries)
),
counted AS (
    SELECT game, class1, class2,
        sum(records)::BIGINT AS records_in_region,
        min({'n': n, 'parts': first, 'sg': first_sg, 'sg_misere': first_sg_misere}) AS first
    FROM classified
    GROUP BY game, class1, class2
),
regions(class1, class2, class1_name, class2_name, figure7, figure7_occupants) AS (
    VALUES
    ('P', 'F', 'pet', 'forced', 'occupied',
        'Bishop; (Pawn,hook); (Rook,staircase); (Queen,staircase); (Knight,staircase); (D,rect); (D,staircase)'),
    ('M', 'F', 'miserable not pet', 'forced', 'occupied', 'Nim; (King,rect); (Rook,gen staircase); (Rook,rect)'),
    ('T', 'F', 'tame not miserable', 'forced', 'occupied', '(Rook,S1)'),
    ('D', 'F', 'domestic not tame', 'forced', 'unknown', NULL),
    ('N', 'F', 'not domestic', 'forced', 'unknown', NULL),
    ('P', 'R', 'pet', 'returnable not forced', 'occupied',
        'Subtraction; (D,gen staircase); (Knight,rect); Pawn; (King,staircase)'),
    ('M', 'R', 'miserable not pet', 'returnable not forced', 'occupied',
        'Wythoff = (Queen,rect); (Queen,gen staircase)'),
    ('T', 'R', 'tame not miserable', 'returnable not forced', 'occupied', '(Queen,S2)'),
    ('D', 'R', 'domestic not tame', 'returnable not forced', 'occupied', 'D; LCTR; (Knight,gen staircase); Knight'),
    ('N', 'R', 'not domestic', 'returnable not forced', 'unknown', NULL),
    ('P', 'N''', 'pet', 'not returnable', 'empty', 'none possible: pet implies returnable'),
    ('M', 'N''', 'miserable not pet', 'not returnable', 'unknown', NULL),
    ('T', 'N''', 'tame not miserable', 'not returnable', 'unknown', NULL),
    ('D', 'N''', 'domestic not tame', 'not returnable', 'unknown', NULL),
    ('N', 'N''', 'not domestic', 'not returnable', 'occupied', 'Rook; Mark; Queen; (King,gen staircase)')
),
games AS (SELECT DISTINCT game FROM summaries)
SELECT
    g.game,
    r.class1 || '∩' || r.class2 AS region,
    r.class1_name,
    r.class2_name,
    r.figure7,
    c.first.n AS witness_n,
    c.first.parts AS witness,
    c.first.sg AS witness_sg,
    c.first.sg_misere AS witness_sg_misere,
    coalesce(c.records_in_region, 0) AS records_in_region,
    r.figure7_occupants
FROM games AS g
CROSS JOIN regions AS r
LEFT JOIN counted AS c
    ON c.game = g.game AND c.class1 = r.class1 AND c.class2 = r.class2
ORDER BY g.game,
    list_position(['F', 'R', 'N'''], r.class2),
    list_position(['P', 'M', 'T', 'D', 'N'], r.class1)
