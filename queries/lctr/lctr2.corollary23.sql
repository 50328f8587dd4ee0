-- id: lctr2.corollary23
-- source: lctr-sg-complexity.txt, Corollary 23
-- kind: corollary
-- statement: For every partition λ, the number of nodes of the game tree of L(λ) equals the number of
--   nodes of the game tree of D(λ) plus the number of leaves of the game tree of L(λ).
-- covers: lctr, downright; every nonempty partition present in both games with exact (non-NULL) counts
--   (a record with a count past 2^63 − 1, stored as NULL, is reported as skipped, not examined)
-- needs: same n
-- domain: SELECT n, lctr_nodes IS NOT NULL AND downright_nodes IS NOT NULL AND lctr_leaves IS NOT NULL AS examined
--   FROM lctr_downright
SELECT n, partition_at(n, ordinal) AS parts, lctr_nodes, downright_nodes, lctr_leaves, aligned
FROM lctr_downright
WHERE aligned IS NOT TRUE
   OR (lctr_nodes IS NOT NULL AND downright_nodes IS NOT NULL AND lctr_leaves IS NOT NULL
       AND lctr_nodes::HUGEINT <> downright_nodes::HUGEINT + lctr_leaves::HUGEINT)
