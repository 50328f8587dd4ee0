-- id: lctr2.observation5
-- source: lctr-sg-complexity.txt, Observation 5
-- kind: observation
-- statement: Let A be a position in any impartial game under normal play. Then SG(A) does not exceed the
--   number of allowable moves from A. Checked for LCTR (two moves from every nonempty partition) and
--   Downright (a move down iff r > 1, a move right iff λ1 > 1).
-- covers: lctr, downright; every partition
-- needs: record
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
SELECT 'lctr' AS game, n, parts, sg, 2 AS moves
FROM lctr
WHERE sg > 2
UNION ALL
SELECT 'downright', n, parts, sg, (num_parts > 1)::INTEGER + (largest > 1)::INTEGER
FROM downright
WHERE sg > (num_parts > 1)::INTEGER + (largest > 1)::INTEGER
