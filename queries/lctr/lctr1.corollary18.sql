-- id: lctr1.corollary18
-- source: lctr-some-results.txt, Corollary 18
-- kind: corollary
-- statement: For any partition of n there exist at most n distinct partitions reachable from it.
-- covers: lctr; every partition
-- correction: docs/definitions.md §8.2: this paper counts the reachable positions without λ itself (its example
--   (5,3^2,2,1^2) has 11); the stored states column includes λ, so the bound is states − 1 ≤ n.
-- needs: record
-- domain: SELECT n FROM lctr
SELECT n, parts, states, states - 1 AS reachable_without_self
FROM lctr
WHERE states - 1 > n
