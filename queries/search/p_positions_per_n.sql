-- description: P-positions (sg = 0) and misère P-positions (sg_misere = 0) per game and n, with the
--  number of start positions (board games: p(n); Slow SetNim: partitions of N into at most s
--  parts) and the positions that are P in both plays. p_seq / misere_p_seq hold the sequence of
--  counts from the game's smallest n up to this n, ready to paste into an integer-sequence lookup.
--  Read from the summaries: every (game, n) run, whatever its run kept, in seconds on any store.
SELECT
    game,
    n,
    records AS positions,
    p_positions,
    misere_p_positions,
    p_in_both,
    string_agg(p_positions::VARCHAR, ',')
        OVER (PARTITION BY game ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS p_seq,
    string_agg(misere_p_positions::VARCHAR, ',')
        OVER (PARTITION BY game ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS misere_p_seq
FROM summaries
ORDER BY game, n
