-- description: Per game and n, the smallest state space: the minimum number of distinct reachable
--  positions (states, the start included; LCTR also counts ()), how many partitions attain it and
--  which (space-separated, reverse lexicographic order, at most 20 shown), and for comparison the
--  maximum number of states and the first partition attaining it.
--  Read from the summaries: every (game, n) run, whatever its run kept, in seconds on any store.
SELECT
    game,
    n,
    min_states,
    min_states_count,
    array_to_string(list_transform(min_states_at, lambda q: '(' || array_to_string(q, ',') || ')'), ' ')
        AS min_states_at,
    max_states,
    max_states_count,
    '(' || array_to_string(max_states_at[1], ',') || ')' AS max_states_first
FROM summaries
ORDER BY game, n
