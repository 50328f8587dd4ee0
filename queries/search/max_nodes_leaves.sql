-- description: Per game and n, the largest game tree: the maximum number of nodes and the
--  partitions attaining it, and the maximum number of leaves (complete plays) and the partitions
--  attaining it (space-separated, reverse lexicographic order, at most 20 shown; *_count gives how
--  many attain the maximum).
--  overflowed counts the records whose nodes or leaves exceed 2^63 - 1 (stored NULL): when it is
--  not 0 the true maximum is among those records and the maxima shown are only over the rest.
--  Read from the summaries: every (game, n) run, whatever its run kept, in seconds on any store.
SELECT
    game,
    n,
    max_nodes,
    max_nodes_count,
    array_to_string(list_transform(max_nodes_at, lambda q: '(' || array_to_string(q, ',') || ')'), ' ')
        AS max_nodes_at,
    max_leaves,
    max_leaves_count,
    array_to_string(list_transform(max_leaves_at, lambda q: '(' || array_to_string(q, ',') || ')'), ' ')
        AS max_leaves_at,
    overflow_records AS overflowed
FROM summaries
ORDER BY game, n
