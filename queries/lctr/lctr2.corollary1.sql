-- id: lctr2.corollary1
-- source: lctr-sg-complexity.txt, Corollary 1
-- kind: corollary
-- statement: Let A, B be positions such that A → B. Then SG(A) ≠ SG(B). Checked for every move of LCTR
--   (to λ[1,0] and λ[0,1], the empty partition having value 0) and of Downright (to λ[1,0] when r > 1,
--   to λ[0,1] when λ1 > 1).
-- covers: lctr, downright; every partition and each of its moves
-- needs: followers
-- domain: SELECT n FROM lctr WHERE verify_subject(n) UNION ALL SELECT n FROM downright WHERE verify_subject(n)
-- One join per game, each move against its own game's records only (a join to both tables with the game
-- in the condition kept both hash tables of every record's parts: n <= 80 failed at a 38 GiB spill limit,
-- and now holds in 163 s; n <= 70 36 -> 26 s).
WITH lm AS (
    SELECT 'lctr' AS game, n, parts, sg, 'T' AS move, parts[2:] AS target FROM lctr WHERE verify_subject(n)
    UNION ALL
    SELECT 'lctr', n, parts, sg, 'L', list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0)
    FROM lctr WHERE verify_subject(n)
),
dm AS (
    SELECT 'downright' AS game, n, parts, sg, 'T' AS move, parts[2:] AS target FROM downright WHERE num_parts > 1 AND verify_subject(n)
    UNION ALL
    SELECT 'downright', n, parts, sg, 'L', list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0)
    FROM downright WHERE largest > 1 AND verify_subject(n)
)
SELECT lm.game, lm.n, lm.parts, lm.sg, lm.move, lm.target,
       CASE WHEN len(lm.target) = 0 THEN 0 ELSE l.sg END AS target_sg
FROM lm LEFT JOIN lctr l ON record_key(l.n, l.ordinal) = part_key(lm.target)
WHERE lm.sg = CASE WHEN len(lm.target) = 0 THEN 0 ELSE l.sg END
UNION ALL
SELECT dm.game, dm.n, dm.parts, dm.sg, dm.move, dm.target, d.sg
FROM dm LEFT JOIN downright d ON record_key(d.n, d.ordinal) = part_key(dm.target)
WHERE dm.sg = d.sg
