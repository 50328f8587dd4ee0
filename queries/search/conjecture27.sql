-- description: Conjecture 27 of lctr-sg-complexity.txt: among the partitions of n = k², the square
--  (k^k) maximises the number of game-tree nodes, for LCTR and Downright. Per game and k with k² in
--  the store: the maximum of nodes over the partitions of k², the maximisers, the square's nodes and
--  rank (1 + the number of partitions of k² with strictly more nodes; rank 1 = the conjecture holds
--  at k), whether the square is the unique maximiser, and the runner-up value. The paper also
--  says it believes the square maximises the leaves: the same columns for leaves (for LCTR
--  leaves = (nodes + 1) / 2, so they agree; for Downright they need not).
WITH sq AS (
    SELECT game, n, parts, nodes, leaves, int_sqrt(n)::INTEGER AS k,
        is_rectangle(parts) AND len(parts) = int_sqrt(n) AS is_square
    FROM records
    WHERE game IN ('lctr', 'downright') AND int_sqrt(n) * int_sqrt(n) = n
),
agg AS (
    SELECT game, n,
        max(nodes) AS max_nodes,
        max(leaves) AS max_leaves,
        any_value(nodes) FILTER (WHERE is_square) AS square_nodes,
        any_value(leaves) FILTER (WHERE is_square) AS square_leaves
    FROM sq
    GROUP BY game, n
)
SELECT
    s.game,
    any_value(s.k) AS k,
    s.n,
    count(*) AS partitions,
    a.max_nodes,
    array_to_string(list_transform(list_sort(list(s.parts) FILTER (WHERE s.nodes = a.max_nodes), 'DESC'),
        lambda q: '(' || array_to_string(q, ',') || ')'), ' ') AS max_nodes_at,
    a.square_nodes,
    1 + count(*) FILTER (WHERE s.nodes > a.square_nodes) AS square_nodes_rank,
    a.square_nodes = a.max_nodes AS conjecture_holds,
    a.square_nodes = a.max_nodes AND count(*) FILTER (WHERE s.nodes = a.max_nodes) = 1 AS square_unique_max,
    max(s.nodes) FILTER (WHERE s.nodes < a.max_nodes) AS runner_up_nodes,
    a.max_leaves,
    array_to_string(list_transform(list_sort(list(s.parts) FILTER (WHERE s.leaves = a.max_leaves), 'DESC'),
        lambda q: '(' || array_to_string(q, ',') || ')'), ' ') AS max_leaves_at,
    a.square_leaves,
    1 + count(*) FILTER (WHERE s.leaves > a.square_leaves) AS square_leaves_rank,
    count(*) FILTER (WHERE s.nodes IS NULL OR s.leaves IS NULL) AS overflowed
FROM sq AS s
JOIN agg AS a ON a.game = s.game AND a.n = s.n
GROUP BY s.game, s.n, a.max_nodes, a.max_leaves, a.square_nodes, a.square_leaves
ORDER BY s.game, s.n
