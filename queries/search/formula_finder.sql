-- description: Hints for new formulas. Records with at most three distinct part sizes are written
--  λ = (s1^m1, s2^m2, s3^m3), s1 > s2 > s3 > 0 (the list blocks(parts) = [{size, mult}, …]; read
--  here in O(1) from the conjugate: m1 = λ'(s1), s2 = λ(m1 + 1), m1 + m2 = λ'(s2), …), with the
--  step widths d1 = s1 − s2, d2 = s2 − s3, d3 = s3 (the last step is its size), so the shape is
--  exactly (d_i, m_i), i <= k, k = number of distinct sizes. Each game's records are grouped by
--  (k, M, the residues of every d_i and m_i mod M) for M = 1 (the whole family of k-step shapes),
--  2, 3 and 4; the groups on which sg or sg_misere is constant are listed when they hold at least
--  min_records (5) records over at least min_n_span (3) consecutive values of n (max n − min n + 1).
--  A group is left out when its coarser group - M = 1 for M = 2, 3, M = 2 for M = 4 - is already
--  constant on the same value. Columns d1..m3 are the residues (NULL beyond k); value says which
--  of sg / sg_misere is constant (both: two rows); smallest and largest are the group's first and
--  last record (by n, then parts). Thresholds: edit the params line.
WITH params AS (
    SELECT 5 AS min_records, 3 AS min_n_span
),
shape0 AS (
    SELECT game, n, parts, sg, sg_misere, num_parts, distinct_sizes AS k,
        largest::INTEGER AS s1,
        conjugate[largest]::INTEGER AS m1,
        parts[conjugate[largest] + 1]::INTEGER AS s2,
        conjugate
    FROM records
    WHERE distinct_sizes BETWEEN 1 AND 3
),
shape1 AS (
    SELECT *,
        conjugate[s2]::INTEGER - m1 AS m2,
        parts[conjugate[s2] + 1]::INTEGER AS s3
    FROM shape0
),
shape AS (
    SELECT game, n, parts, sg, sg_misere, k,
        s1 - coalesce(s2, 0) AS d1, m1,
        s2 - coalesce(s3, 0) AS d2, m2,
        s3 AS d3, CASE WHEN s3 IS NOT NULL THEN num_parts - m1 - m2 END AS m3
    FROM shape1
),
keyed AS (
    SELECT game, n, parts, sg, sg_misere, k, m.modulus,
        d1 % m.modulus AS r_d1, m1 % m.modulus AS r_m1,
        d2 % m.modulus AS r_d2, m2 % m.modulus AS r_m2,
        d3 % m.modulus AS r_d3, m3 % m.modulus AS r_m3
    FROM shape
    CROSS JOIN (VALUES (1), (2), (3), (4)) AS m(modulus)
),
groups AS (
    SELECT game, k, modulus, r_d1, r_m1, r_d2, r_m2, r_d3, r_m3,
        count(*) AS records,
        min(n) AS min_n,
        max(n) AS max_n,
        min(sg) AS sg_min, max(sg) AS sg_max,
        min(sg_misere) AS sgm_min, max(sg_misere) AS sgm_max,
        min([n::SMALLINT] || parts) AS first_key,
        max([n::SMALLINT] || parts) AS last_key
    FROM keyed
    GROUP BY game, k, modulus, r_d1, r_m1, r_d2, r_m2, r_d3, r_m3
),
candidates AS (
    SELECT *
    FROM groups, params
    WHERE (sg_min = sg_max OR sgm_min = sgm_max)
      AND records >= min_records AND max_n - min_n + 1 >= min_n_span
),
with_parent AS (
    SELECT c.*,
        p.sg_min = p.sg_max AS parent_sg_constant,
        p.sgm_min = p.sgm_max AS parent_sgm_constant
    FROM candidates AS c
    LEFT JOIN groups AS p
        ON p.game = c.game AND p.k = c.k
        AND p.modulus = CASE c.modulus WHEN 4 THEN 2 ELSE 1 END
        AND c.modulus > 1
        AND p.r_d1 IS NOT DISTINCT FROM c.r_d1 % p.modulus
        AND p.r_m1 IS NOT DISTINCT FROM c.r_m1 % p.modulus
        AND p.r_d2 IS NOT DISTINCT FROM c.r_d2 % p.modulus
        AND p.r_m2 IS NOT DISTINCT FROM c.r_m2 % p.modulus
        AND p.r_d3 IS NOT DISTINCT FROM c.r_d3 % p.modulus
        AND p.r_m3 IS NOT DISTINCT FROM c.r_m3 % p.modulus
),
hints AS (
    SELECT w.*, v.value,
        CASE v.value WHEN 'sg' THEN w.sg_min ELSE w.sgm_min END AS constant
    FROM with_parent AS w
    CROSS JOIN (VALUES ('sg'), ('sg_misere')) AS v(value)
    WHERE CASE v.value
        WHEN 'sg' THEN w.sg_min = w.sg_max AND NOT coalesce(w.parent_sg_constant, false)
        ELSE w.sgm_min = w.sgm_max AND NOT coalesce(w.parent_sgm_constant, false)
    END
)
SELECT
    game, value, constant, k, modulus,
    r_d1 AS d1, r_m1 AS m1, r_d2 AS d2, r_m2 AS m2, r_d3 AS d3, r_m3 AS m3,
    records, min_n, max_n,
    '(' || array_to_string(first_key[2:], ',') || ')' AS smallest,
    '(' || array_to_string(last_key[2:], ',') || ')' AS largest
FROM hints
ORDER BY game, value, k, modulus, d1, m1, d2 NULLS FIRST, m2 NULLS FIRST, d3 NULLS FIRST, m3 NULLS FIRST
