-- description: Conjecture 27 of lctr-sg-complexity.txt: among the partitions of n = k², the square
--  (k^k) maximises the number of game-tree nodes, for LCTR and Downright. Per game and k with k² in
--  the store: the maximum of nodes over the partitions of k², how many partitions attain it and
--  which (reverse lexicographic order, at most 20 shown), whether the square is among them
--  (conjecture_holds; NULL when more than 20 attain the maximum and the square is not shown),
--  whether it is the only one, and the runner-up value (the largest below the maximum). The
--  paper also says it believes the square maximises the leaves: the same columns for leaves (for
--  LCTR leaves = (nodes + 1) / 2, so they agree; for Downright they need not). overflowed: records
--  whose nodes or leaves exceed 2^63 - 1 (the maximum is then among them).
--  Read from the summaries: every (game, n) run, whatever its run kept, in seconds on any store.
WITH sq AS (
    SELECT *, int_sqrt(n)::INTEGER AS k,
        list_transform(range(int_sqrt(n)::INTEGER), lambda i: int_sqrt(n)::SMALLINT) AS square
    FROM summaries
    WHERE game IN ('lctr', 'downright') AND int_sqrt(n) * int_sqrt(n) = n
)
SELECT
    game,
    k,
    n,
    records AS partitions,
    max_nodes,
    max_nodes_count,
    array_to_string(list_transform(max_nodes_at, lambda q: '(' || array_to_string(q, ',') || ')'), ' ')
        AS max_nodes_at,
    CASE WHEN list_contains(max_nodes_at, square) THEN true
         WHEN max_nodes_count <= len(max_nodes_at) THEN false END AS conjecture_holds,
    list_contains(max_nodes_at, square) AND max_nodes_count = 1 AS square_unique_max,
    max_nodes_next AS runner_up_nodes,
    max_leaves,
    max_leaves_count,
    array_to_string(list_transform(max_leaves_at, lambda q: '(' || array_to_string(q, ',') || ')'), ' ')
        AS max_leaves_at,
    CASE WHEN list_contains(max_leaves_at, square) THEN true
         WHEN max_leaves_count <= len(max_leaves_at) THEN false END AS leaves_conjecture_holds,
    max_leaves_next AS runner_up_leaves,
    overflow_records AS overflowed
FROM sq
ORDER BY game, n
