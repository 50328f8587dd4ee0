-- id: lctr2.lemma25
-- source: lctr-sg-complexity.txt, Lemma 25
-- kind: lemma
-- statement: Let λ ⊢ n. The game tree of D(λ) has at least 1 leaf and the game tree of L(λ) has at least
--   n + 1 leaves. Both lower bounds are tight: the row (n) attains them.
-- covers: lctr, downright; every partition (bounds), rows (n) (tightness)
-- needs: record
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
SELECT 'lctr' AS game, n, parts, leaves, n + 1 AS bound, 'below bound' AS failure
FROM lctr
WHERE leaves IS NOT NULL AND leaves < n + 1
UNION ALL
SELECT 'lctr', n, parts, leaves, n + 1, 'row does not attain the bound'
FROM lctr
WHERE num_parts = 1 AND leaves IS DISTINCT FROM n + 1
UNION ALL
SELECT 'downright', n, parts, leaves, 1, 'below bound'
FROM downright
WHERE leaves IS NOT NULL AND leaves < 1
UNION ALL
SELECT 'downright', n, parts, leaves, 1, 'row does not attain the bound'
FROM downright
WHERE num_parts = 1 AND leaves IS DISTINCT FROM 1
