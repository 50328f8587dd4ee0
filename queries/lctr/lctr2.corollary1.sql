-- id: lctr2.corollary1
-- source: lctr-sg-complexity.txt, Corollary 1
-- kind: corollary
-- statement: Let A, B be positions such that A → B. Then SG(A) ≠ SG(B). Checked for every move of LCTR
--   (to λ[1,0] and λ[0,1], the empty partition having value 0) and of Downright (to λ[1,0] when r > 1,
--   to λ[0,1] when λ1 > 1).
-- covers: lctr, downright; every partition and each of its moves
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
WITH mv AS (
    SELECT 'lctr' AS game, n, parts, sg, 'T' AS move, parts[2:] AS target FROM lctr
    UNION ALL
    SELECT 'lctr', n, parts, sg, 'L', list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0)
    FROM lctr
    UNION ALL
    SELECT 'downright', n, parts, sg, 'T', parts[2:] FROM downright WHERE num_parts > 1
    UNION ALL
    SELECT 'downright', n, parts, sg, 'L', list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0)
    FROM downright WHERE largest > 1
)
SELECT mv.game, mv.n, mv.parts, mv.sg, mv.move, mv.target,
       CASE WHEN len(mv.target) = 0 THEN 0 ELSE coalesce(l.sg, d.sg) END AS target_sg
FROM mv
LEFT JOIN lctr l ON mv.game = 'lctr' AND l.parts = mv.target
LEFT JOIN downright d ON mv.game = 'downright' AND d.parts = mv.target
WHERE mv.sg = CASE WHEN len(mv.target) = 0 THEN 0 ELSE coalesce(l.sg, d.sg) END
