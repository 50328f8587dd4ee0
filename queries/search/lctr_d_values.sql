-- description: d-dimensional LCTR's values per n (lctr-sg-complexity.txt §8: "Is there a fast
--   algorithm like in the case d = 2?"), for every (game, n) of lctr_d2, lctr_d3, lctr_d4 the store
--   summarises (with --keep none too: the counts come from the summaries, docs/records.md): the
--   starts, the P-positions and their share, the starts of each value 1..4 (NULL above d), the
--   misère P-positions and those P in both plays. Then, where the records of every n up to it are
--   kept, the diagonal shift π⁺ (macro diagonal_shift: one layer removed in every direction), the
--   route of d = 2's fast algorithm (Lemma 15.1: sg(π⁺) = 0 with π⁺ nonempty gives sg(π) = 0):
--   the starts with π⁺ nonempty (shifted), of those sg(π⁺) = 0 (shift_p) and of those sg(π) ≠ 0
--   (zero_lost), and the starts with π⁺ nonempty and sg(π) = sg(π⁺) (same_value, with its share of
--   shifted); NULL where some n up to it is not kept. A report, not a statement: it holds nothing.
WITH lctr_d AS NOT MATERIALIZED (
    SELECT 'lctr_d2' AS game, n, corners, dims, sg FROM lctr_d2
    UNION ALL
    SELECT 'lctr_d3', n, corners, dims, sg FROM lctr_d3
    UNION ALL
    SELECT 'lctr_d4', n, corners, dims, sg FROM lctr_d4
),
summed AS (
    SELECT game, n, records, p_positions, misere_p_positions, p_in_both, unnest(pairs) AS pair
    FROM summaries
    WHERE game IN ('lctr_d2', 'lctr_d3', 'lctr_d4')
),
dist AS (
    SELECT game, n, any_value(records) AS starts, any_value(p_positions) AS p,
        any_value(misere_p_positions) AS misere_p, any_value(p_in_both) AS p_both,
        sum(pair.records) FILTER (WHERE pair.sg = 1) AS sg1,
        sum(pair.records) FILTER (WHERE pair.sg = 2) AS sg2,
        sum(pair.records) FILTER (WHERE pair.sg = 3) AS sg3,
        sum(pair.records) FILTER (WHERE pair.sg = 4) AS sg4
    FROM summed
    GROUP BY game, n
),
-- the (game, n) whose records, and those of every smaller n, are all kept: π⁺ is found there
complete AS (
    SELECT j.game, j.n FROM jobs j
    WHERE j.game IN ('lctr_d2', 'lctr_d3', 'lctr_d4') AND j.kept = 'all'
      AND (SELECT count(*) FROM jobs k WHERE k.game = j.game AND k.n <= j.n AND k.kept = 'all') = j.n
),
-- π⁺ of a start of n has at most n − (2^d − 1) cells (π holds the cube {1, 2}^d, whose other
-- cells are not shifted): only those records are looked up. They are looked up by a hash of the
-- corners, not the list, which keeps the join's table small; exact, because every π⁺ of a start
-- examined is among them (every n up to it is kept) and no two of them share a hash (checked:
-- the search stops with an error otherwise).
top AS (SELECT game, max(n) AS n FROM complete GROUP BY game),
looked_up AS (
    SELECT l.game, hash(l.corners) AS key, l.sg FROM lctr_d l JOIN top t ON t.game = l.game
    WHERE l.n <= t.n - (2 ^ l.dims - 1)
),
unique_keys AS (
    SELECT CASE WHEN count(*) = count(DISTINCT (game, key)) THEN true
                ELSE error('lctr_d_values: two diagrams share a hash of their corners') END AS ok
    FROM looked_up
),
shifted AS (
    SELECT a.game, a.n, a.sg, b.sg AS shift_sg
    FROM (SELECT l.game, l.n, l.sg, hash(diagonal_shift(l.corners, l.dims)) AS key FROM lctr_d l
          SEMI JOIN complete c ON c.game = l.game AND c.n = l.n
          WHERE l.n >= 2 ^ l.dims AND len(diagonal_shift(l.corners, l.dims)) > 0) a
    JOIN looked_up b ON b.game = a.game AND b.key = a.key
    WHERE (SELECT ok FROM unique_keys)
),
diag AS (
    SELECT game, n, count(*) AS shifted,
        count(*) FILTER (WHERE shift_sg = 0) AS shift_p,
        count(*) FILTER (WHERE shift_sg = 0 AND sg <> 0) AS zero_lost,
        count(*) FILTER (WHERE sg = shift_sg) AS same_value
    FROM shifted
    GROUP BY game, n
)
SELECT d.game, d.n, d.starts, d.p, round(100.0 * d.p / d.starts, 1) AS p_pct,
    coalesce(d.sg1, 0) AS sg1, coalesce(d.sg2, 0) AS sg2,
    CASE WHEN d.game <> 'lctr_d2' THEN coalesce(d.sg3, 0) END AS sg3,
    CASE WHEN d.game = 'lctr_d4' THEN coalesce(d.sg4, 0) END AS sg4,
    d.misere_p, d.p_both,
    CASE WHEN c.n IS NOT NULL THEN coalesce(g.shifted, 0) END AS shifted,
    CASE WHEN c.n IS NOT NULL THEN coalesce(g.shift_p, 0) END AS shift_p,
    CASE WHEN c.n IS NOT NULL THEN coalesce(g.zero_lost, 0) END AS zero_lost,
    CASE WHEN c.n IS NOT NULL THEN coalesce(g.same_value, 0) END AS same_value,
    round(100.0 * g.same_value / g.shifted, 1) AS same_value_pct
FROM dist d
LEFT JOIN complete c USING (game, n)
LEFT JOIN diag g USING (game, n)
ORDER BY d.game, d.n
