-- The question of queries/search/'s file of the same name, asked of the records (tests/test_summaries.py).
WITH per_n AS (
    SELECT game, n, min(states) AS min_states, max(states) AS max_states
    FROM records
    GROUP BY game, n
)
SELECT
    p.game,
    p.n,
    p.min_states,
    count(*) FILTER (WHERE r.states = p.min_states) AS min_states_count,
    array_to_string(list_transform(
        list_sort(list(r.parts) FILTER (WHERE r.states = p.min_states), 'DESC')[:20],
        lambda q: '(' || array_to_string(q, ',') || ')'), ' ') AS min_states_at,
    p.max_states,
    count(*) FILTER (WHERE r.states = p.max_states) AS max_states_count,
    '(' || array_to_string(
        list_sort(list(r.parts) FILTER (WHERE r.states = p.max_states), 'DESC')[1], ',') || ')'
        AS max_states_first
FROM per_n AS p
JOIN records AS r ON r.game = p.game AND r.n = p.n
GROUP BY p.game, p.n, p.min_states, p.max_states
ORDER BY p.game, p.n
