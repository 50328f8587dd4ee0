-- description: P-positions (sg = 0) and misère P-positions (sg_misere = 0) per game and n, with the
--  number of start positions (board games: p(n); Slow SetNim: partitions of N into at most s
--  parts) and the positions that are P in both plays. p_seq / misere_p_seq hold the sequence of
--  counts from the game's smallest n up to this n, ready to paste into an integer-sequence lookup.
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
