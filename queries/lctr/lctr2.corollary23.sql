-- id: lctr2.corollary23
-- source: lctr-sg-complexity.txt, Corollary 23
-- kind: corollary
-- statement: For every partition λ, the number of nodes of the game tree of L(λ) equals the number of
--   nodes of the game tree of D(λ) plus the number of leaves of the game tree of L(λ).
-- covers: lctr, downright; every nonempty partition present in both games with exact (non-NULL) counts
--   (a record with a count past 2^63 − 1, stored as NULL, is reported as skipped, not examined)
-- needs: same n
-- domain: SELECT l.n, l.nodes IS NOT NULL AND d.nodes IS NOT NULL AND l.leaves IS NOT NULL AS examined
--   FROM lctr l JOIN downright d ON d.n = l.n AND d.ordinal = l.ordinal
SELECT l.n, l.parts, l.nodes AS lctr_nodes, d.nodes AS downright_nodes, l.leaves AS lctr_leaves
FROM lctr l
JOIN downright d ON d.n = l.n AND d.ordinal = l.ordinal
WHERE l.nodes IS NOT NULL AND d.nodes IS NOT NULL AND l.leaves IS NOT NULL
  AND l.nodes::HUGEINT <> d.nodes::HUGEINT + l.leaves::HUGEINT
