-- The question of queries/search/'s file of the same name, asked of the records (tests/test_summaries.py).
SELECT
    game,
    n,
    count(*) AS positions,
    count(*) FILTER (WHERE sg = 0) AS p_positions,
    count(*) FILTER (WHERE sg_misere = 0) AS misere_p_positions,
    count(*) FILTER (WHERE sg = 0 AND sg_misere = 0) AS p_in_both,
    string_agg(count(*) FILTER (WHERE sg = 0)::VARCHAR, ',')
        OVER (PARTITION BY game ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS p_seq,
    string_agg(count(*) FILTER (WHERE sg_misere = 0)::VARCHAR, ',')
        OVER (PARTITION BY game ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS misere_p_seq
FROM records
GROUP BY game, n
ORDER BY game, n
