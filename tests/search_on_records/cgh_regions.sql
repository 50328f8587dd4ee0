-- The CTEs classified and counted of queries/search/cgh_regions.sql, over the records; the test
-- puts the search's own table of regions after them (tests/test_summaries.py).
WITH classified AS (
    SELECT game, n, parts, sg, sg_misere,
        CASE WHEN pet THEN 'P' WHEN miserable THEN 'M' WHEN tame THEN 'T' WHEN domestic THEN 'D'
             ELSE 'N' END AS class1,
        CASE WHEN forced THEN 'F' WHEN returnable THEN 'R' ELSE 'N''' END AS class2
    FROM records
),
counted AS (
    SELECT game, class1, class2,
        count(*) AS records_in_region,
        min({'n': n, 'parts': parts, 'sg': sg, 'sg_misere': sg_misere}) AS first
    FROM classified
    GROUP BY game, class1, class2
),
