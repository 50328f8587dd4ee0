-- id: lctr2.conjecture27
-- source: lctr-sg-complexity.txt, Conjecture 27
-- kind: conjecture
-- statement: The number of nodes in the game tree of any game of Downright and LCTR on a partition of
--   size k² is maximized by the square partition R(k,k). A counterexample is a partition of k² whose game
--   tree has more nodes than the square's (a NULL node count, i.e. more than 2^63 − 1, counts as larger).
-- covers: lctr, downright; every partition of a perfect square n = k², compared with (k^k)
-- needs: record
-- domain: SELECT n FROM lctr WHERE n IN (SELECT n FROM lctr WHERE distinct_sizes = 1 AND num_parts = largest)
--   UNION ALL SELECT n FROM downright
--   WHERE n IN (SELECT n FROM downright WHERE distinct_sizes = 1 AND num_parts = largest)
WITH sq AS (
    SELECT 'lctr' AS game, n, nodes FROM lctr WHERE distinct_sizes = 1 AND num_parts = largest
    UNION ALL
    SELECT 'downright', n, nodes FROM downright WHERE distinct_sizes = 1 AND num_parts = largest
),
recs AS (
    SELECT 'lctr' AS game, n, ordinal, nodes FROM lctr
    UNION ALL
    SELECT 'downright', n, ordinal, nodes FROM downright
)
SELECT r.game, r.n, partition_at(r.n, r.ordinal) AS parts, r.nodes, s.nodes AS square_nodes
FROM recs r
JOIN sq s ON s.game = r.game AND s.n = r.n
WHERE (r.nodes IS NULL AND s.nodes IS NOT NULL) OR r.nodes > s.nodes
