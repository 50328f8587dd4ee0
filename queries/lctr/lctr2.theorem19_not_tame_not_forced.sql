-- id: lctr2.theorem19_not_tame_not_forced
-- source: lctr-sg-complexity.txt, Theorem 19 (neither tame nor forced) and Figure 9
-- kind: theorem
-- statement: LCTR and Downright are neither tame nor forced: they have (2,1)-positions, and moves from a
--   (1,0)-position to a (2,2)-position (Figure 9). Checked on the partitions of Figure 9, whose
--   reachable positions contain both: Downright on (5,4,2,1,1) and its conjugate (5,3,2,2,1), LCTR on
--   (6,5,5) and its conjugate (3^5,1) (identified from the figure's multiset of pairs; (5^3,1) and
--   (4,3^4) give the same multiset and are included). Each of these records must have tame = false
--   and forced = false.
-- covers: lctr (6,5,5), (3,3,3,3,3,1), (5,5,5,1), (4,3,3,3,3); downright (5,4,2,1,1), (5,3,2,2,1)
-- needs: record
-- domain: SELECT n FROM lctr WHERE n = 16 AND parts IN ([6,5,5], [3,3,3,3,3,1], [5,5,5,1], [4,3,3,3,3])
--   UNION ALL SELECT n FROM downright WHERE n = 13 AND parts IN ([5,4,2,1,1], [5,3,2,2,1])
SELECT 'lctr' AS game, n, parts, tame, forced
FROM lctr
WHERE n = 16 AND parts IN ([6, 5, 5], [3, 3, 3, 3, 3, 1], [5, 5, 5, 1], [4, 3, 3, 3, 3]) AND (tame OR forced)
UNION ALL
SELECT 'downright', n, parts, tame, forced
FROM downright
WHERE n = 13 AND parts IN ([5, 4, 2, 1, 1], [5, 3, 2, 2, 1]) AND (tame OR forced)
