-- The question of queries/search/'s file of the same name, asked of the records (tests/test_summaries.py).
WITH sq AS (
    SELECT game, n, parts, nodes, leaves, int_sqrt(n)::INTEGER AS k,
        is_rectangle(parts) AND len(parts) = int_sqrt(n) AS is_square
    FROM records
    WHERE game IN ('lctr', 'downright') AND int_sqrt(n) * int_sqrt(n) = n
),
agg AS (SELECT game, n, max(nodes) AS mx, max(leaves) AS ml FROM sq GROUP BY game, n)
SELECT
    s.game,
    any_value(s.k) AS k,
    s.n,
    count(*) AS partitions,
    a.mx AS max_nodes,
    count(*) FILTER (WHERE s.nodes = a.mx) AS max_nodes_count,
    array_to_string(list_transform(list_sort(list(s.parts) FILTER (WHERE s.nodes = a.mx), 'DESC')[:20],
        lambda q: '(' || array_to_string(q, ',') || ')'), ' ') AS max_nodes_at,
    bool_or(s.is_square AND s.nodes = a.mx) AS conjecture_holds,
    bool_or(s.is_square AND s.nodes = a.mx) AND count(*) FILTER (WHERE s.nodes = a.mx) = 1 AS square_unique_max,
    max(s.nodes) FILTER (WHERE s.nodes < a.mx) AS runner_up_nodes,
    a.ml AS max_leaves,
    count(*) FILTER (WHERE s.leaves = a.ml) AS max_leaves_count,
    array_to_string(list_transform(list_sort(list(s.parts) FILTER (WHERE s.leaves = a.ml), 'DESC')[:20],
        lambda q: '(' || array_to_string(q, ',') || ')'), ' ') AS max_leaves_at,
    bool_or(s.is_square AND s.leaves = a.ml) AS leaves_conjecture_holds,
    max(s.leaves) FILTER (WHERE s.leaves < a.ml) AS runner_up_leaves,
    count(*) FILTER (WHERE s.nodes IS NULL OR s.leaves IS NULL) AS overflowed
FROM sq AS s
JOIN agg AS a ON a.game = s.game AND a.n = s.n
GROUP BY s.game, s.n, a.mx, a.ml
ORDER BY s.game, s.n
