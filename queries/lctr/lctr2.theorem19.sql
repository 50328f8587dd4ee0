-- id: lctr2.theorem19
-- source: lctr-sg-complexity.txt, Theorem 19 (domestic and returnable)
-- kind: theorem
-- statement: LCTR and Downright are domestic and returnable: no position reachable from any start is a
--   (0,k)- or (k,0)-position with k ≥ 2, and from every (0,1)- (resp. (1,0)-) position each move to a
--   non-terminal position y leaves y a move to a (0,1)- (resp. (1,0)-) position. On records: the flags
--   domestic and returnable are true for every start. (The "neither tame nor forced" half is
--   lctr2.theorem19_not_tame_not_forced.)
-- covers: lctr, downright; every partition
-- needs: record
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
SELECT 'lctr' AS game, n, parts, sg, sg_misere, domestic, returnable
FROM lctr
WHERE NOT domestic OR NOT pair_domestic(sg, sg_misere) OR NOT returnable
UNION ALL
SELECT 'downright', n, parts, sg, sg_misere, domestic, returnable
FROM downright
WHERE NOT domestic OR NOT pair_domestic(sg, sg_misere) OR NOT returnable
