-- id: lctr1.theorem1
-- source: lctr-some-results.txt, Theorem 1
-- kind: theorem
-- statement: A position is an N-position iff it has a move to a P-position, and a P-position iff it has
--   no move to a P-position (normal play); under misère play terminal positions are N-positions and the
--   other positions are classified by the same rule. Checked for LCTR and Downright, normal (sg) and
--   misère (sg_misere) play: a record is P (value 0) iff none of its followers is P.
-- covers: lctr, downright; normal and misère play; every partition whose followers are present
-- needs: followers
-- domain: SELECT n FROM lctr WHERE verify_subject(n) UNION ALL SELECT n FROM downright WHERE verify_subject(n)
-- base is read twice (the LCTR and the Downright half of fol): NOT MATERIALIZED keeps DuckDB from
-- storing every record with its two follower lists first (n <= 70: 15.9 -> 5.6 GB, 47 -> 32 s;
-- n <= 80 failed at a 38 GiB spill limit and now holds in 306 s).
WITH base AS NOT MATERIALIZED (
    SELECT 'lctr' AS game, n, parts, sg, sg_misere,
           parts[2:] AS t,
           list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0) AS l,
           true AS has_t, true AS has_l
    FROM lctr WHERE verify_subject(n)
    UNION ALL
    SELECT 'downright', n, parts, sg, sg_misere,
           parts[2:],
           list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0),
           num_parts > 1, largest > 1
    FROM downright WHERE verify_subject(n)
),
fol AS (
    SELECT b.game, b.n, b.parts, b.sg, b.sg_misere,
           CASE WHEN NOT b.has_t THEN NULL WHEN len(b.t) = 0 THEN 0 ELSE lt.sg END AS t_sg,
           CASE WHEN NOT b.has_t THEN NULL WHEN len(b.t) = 0 THEN 1 ELSE lt.sg_misere END AS t_mis,
           CASE WHEN NOT b.has_l THEN NULL WHEN len(b.l) = 0 THEN 0 ELSE ll.sg END AS l_sg,
           CASE WHEN NOT b.has_l THEN NULL WHEN len(b.l) = 0 THEN 1 ELSE ll.sg_misere END AS l_mis,
           (b.has_t AND len(b.t) > 0 AND lt.parts IS NULL) OR (b.has_l AND len(b.l) > 0 AND ll.parts IS NULL)
               AS missing
    FROM base b
    LEFT JOIN lctr lt ON b.game = 'lctr' AND record_key(lt.n, lt.ordinal) = part_key(b.t)
    LEFT JOIN lctr ll ON b.game = 'lctr' AND record_key(ll.n, ll.ordinal) = part_key(b.l)
    WHERE b.game = 'lctr'
    UNION ALL
    SELECT b.game, b.n, b.parts, b.sg, b.sg_misere,
           CASE WHEN b.has_t THEN dt.sg END, CASE WHEN b.has_t THEN dt.sg_misere END,
           CASE WHEN b.has_l THEN dl.sg END, CASE WHEN b.has_l THEN dl.sg_misere END,
           (b.has_t AND dt.parts IS NULL) OR (b.has_l AND dl.parts IS NULL)
    FROM base b
    LEFT JOIN downright dt ON b.has_t AND record_key(dt.n, dt.ordinal) = part_key(b.t)
    LEFT JOIN downright dl ON b.has_l AND record_key(dl.n, dl.ordinal) = part_key(b.l)
    WHERE b.game = 'downright'
)
SELECT game, n, parts, sg, sg_misere, t_sg, l_sg, t_mis, l_mis
FROM fol
WHERE NOT missing
  AND ((sg = 0) <> NOT (coalesce(t_sg = 0, false) OR coalesce(l_sg = 0, false))
    OR CASE WHEN t_mis IS NULL AND l_mis IS NULL THEN sg_misere = 0
            ELSE (sg_misere = 0) <> NOT (coalesce(t_mis = 0, false) OR coalesce(l_mis = 0, false)) END)
