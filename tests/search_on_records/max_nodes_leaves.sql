-- The question of queries/search/'s file of the same name, asked of the records (tests/test_summaries.py).
WITH per_n AS (
    SELECT game, n,
        max(nodes) AS max_nodes,
        max(leaves) AS max_leaves,
        count(*) FILTER (WHERE nodes IS NULL OR leaves IS NULL) AS overflowed
    FROM records
    GROUP BY game, n
)
SELECT
    p.game,
    p.n,
    p.max_nodes,
    count(*) FILTER (WHERE r.nodes = p.max_nodes) AS max_nodes_count,
    array_to_string(list_transform(
        list_sort(list(r.parts) FILTER (WHERE r.nodes = p.max_nodes), 'DESC')[:20],
        lambda q: '(' || array_to_string(q, ',') || ')'), ' ') AS max_nodes_at,
    p.max_leaves,
    count(*) FILTER (WHERE r.leaves = p.max_leaves) AS max_leaves_count,
    array_to_string(list_transform(
        list_sort(list(r.parts) FILTER (WHERE r.leaves = p.max_leaves), 'DESC')[:20],
        lambda q: '(' || array_to_string(q, ',') || ')'), ' ') AS max_leaves_at,
    p.overflowed
FROM per_n AS p
JOIN records AS r ON r.game = p.game AND r.n = p.n
GROUP BY p.game, p.n, p.max_nodes, p.max_leaves, p.overflowed
ORDER BY p.game, p.n
