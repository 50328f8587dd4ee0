-- id: slownim.algorithm1
-- source: slow-exact-k-nim.txt, Section 2.4, Algorithm 1 (iterative initial reduction)
-- kind: proposition
-- statement: Algorithm 1 computes the reduced form: starting from x = p, while max(x) exceeds the
--   NIRB value x* = floor(Σ(x) / a) (a = min A), replace x by ctt(x, x*). It terminates, and the final
--   x is r(p). Checked: iterating it on every record ends in the record's reduced_parts.
-- covers: every Slow SetNim game; every position
-- needs: record
-- domain: SELECT n FROM slownim
WITH RECURSIVE it(game, n, parts, a, reduced_parts, x, steps) AS (
    SELECT game, n, parts, moves[1]::INTEGER, reduced_parts, parts, 0
    FROM slownim
    UNION ALL
    SELECT game, n, parts, a, reduced_parts,
           list_filter(list_transform(x, lambda v: least(v, list_sum(x) // a)), lambda v: v > 0)::SMALLINT[],
           steps + 1
    FROM it
    WHERE coalesce(x[1], 0) > coalesce(list_sum(x), 0) // a
)
SELECT game, n, parts, a, steps, x AS algorithm1, reduced_parts
FROM it
WHERE coalesce(x[1], 0) <= coalesce(list_sum(x), 0) // a
  AND x IS DISTINCT FROM reduced_parts
ORDER BY game, n, parts
