-- id: lctr2.lemma18
-- source: lctr-sg-complexity.txt, Lemma 18
-- kind: lemma
-- statement: LCTR and Downright do not admit (0,2)- and (2,0)-positions (Sprague-Grundy pairs
--   (sg, sg_misere)).
-- covers: lctr, downright; every partition
-- needs: record
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
SELECT 'lctr' AS game, n, parts, sg, sg_misere
FROM lctr
WHERE (sg = 0 AND sg_misere = 2) OR (sg = 2 AND sg_misere = 0)
UNION ALL
SELECT 'downright', n, parts, sg, sg_misere
FROM downright
WHERE (sg = 0 AND sg_misere = 2) OR (sg = 2 AND sg_misere = 0)
