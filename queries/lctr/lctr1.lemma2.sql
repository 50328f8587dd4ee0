-- id: lctr1.lemma2
-- source: lctr-some-results.txt, Lemma 2
-- kind: lemma
-- statement: Every partition has LCTR Sprague-Grundy value at most 2; the same holds for
--   Downright (misère LCTR).
-- covers: lctr, downright; every partition
-- needs: record
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
SELECT 'lctr' AS game, n, parts, sg FROM lctr WHERE sg > 2
UNION ALL
SELECT 'downright', n, parts, sg FROM downright WHERE sg > 2
