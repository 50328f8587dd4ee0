-- description: The non-repetitive variants against the plain games (lctr-sg-complexity.txt §8:
--  "does the game become significantly harder?"): per n, lctr_nr against lctr and downright_nr
--  against downright on the partitions both records hold (compared; 0 where either game lacks
--  the n, and then the counts are NULL, not 0): how many change their Sprague-Grundy value
--  (sg_changed), their misère value (misere_changed), either; the P-positions of each
--  (sg = 0), the variant's largest value, and its average game tree against the plain game's
--  (nodes; the non-repetition rule prunes plays). A report, not a statement: it holds nothing
--  and reads only the records present.
WITH variant AS (
    SELECT 'lctr_nr' AS variant, 'lctr' AS plain, n, ordinal, sg, sg_misere, nodes FROM lctr_nr
    UNION ALL
    SELECT 'downright_nr', 'downright', n, ordinal, sg, sg_misere, nodes FROM downright_nr
),
plain AS (
    SELECT 'lctr' AS plain, n, ordinal, sg, sg_misere, nodes FROM lctr
    UNION ALL
    SELECT 'downright', n, ordinal, sg, sg_misere, nodes FROM downright
),
stored AS (
    SELECT v.variant, v.plain, j.n
    FROM (VALUES ('lctr_nr', 'lctr'), ('downright_nr', 'downright')) v(variant, plain)
    JOIN jobs j ON j.game IN (v.variant, v.plain)
    GROUP BY ALL
),
compared AS (
    SELECT a.variant, a.n,
        count(*) AS compared,
        count(*) FILTER (WHERE a.sg <> b.sg) AS sg_changed,
        count(*) FILTER (WHERE a.sg_misere <> b.sg_misere) AS misere_changed,
        count(*) FILTER (WHERE a.sg <> b.sg OR a.sg_misere <> b.sg_misere) AS either_changed,
        count(*) FILTER (WHERE a.sg = 0) AS p_variant,
        count(*) FILTER (WHERE b.sg = 0) AS p_plain,
        count(*) FILTER (WHERE a.sg_misere = 0) AS misere_p_variant,
        count(*) FILTER (WHERE b.sg_misere = 0) AS misere_p_plain,
        max(a.sg) AS max_sg_variant,
        round(avg(a.nodes::DOUBLE), 1) AS mean_nodes_variant,
        round(avg(b.nodes::DOUBLE), 1) AS mean_nodes_plain
    FROM variant a
    JOIN plain b ON a.plain = b.plain AND a.n = b.n AND a.ordinal = b.ordinal
    GROUP BY a.variant, a.n
)
SELECT s.variant, s.plain, s.n,
    coalesce(c.compared, 0) AS compared,
    c.sg_changed, c.misere_changed, c.either_changed,
    round(100.0 * c.sg_changed / c.compared, 1) AS sg_changed_pct,
    c.p_variant, c.p_plain, c.misere_p_variant, c.misere_p_plain, c.max_sg_variant,
    c.mean_nodes_variant, c.mean_nodes_plain
FROM stored s
LEFT JOIN compared c USING (variant, n)
ORDER BY s.variant DESC, s.n
