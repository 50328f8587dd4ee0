-- id: slownim.algorithm2
-- source: slow-exact-k-nim.txt, Section 2.4, Algorithm 2 (fast initial reduction) and Example 6
-- kind: erratum
-- statement: Algorithm 2 computes r(p) in time linear in n. With p sorted non-decreasing
--   (p_1 <= … <= p_n, empty stacks included), prefix sums s[i] = p_1 + … + p_i and a = min A: if
--   p is reduced return p, otherwise for j = 1 .. a−1 take m = floor(s[n−j] / (a−j)) and stop at the
--   first j with m in (p_{n−j}, p_{n−j+1}]; return ctt(p, m).
-- correction: docs/definitions.md §8.3. As printed, the first test "m·a <= s[n]" with m = floor(s[n]/a) is always
--   true, so the algorithm returns every position unreduced; the intended test is p_n·a <= s[n].
--   The loop then misses two cases: m = floor(s[n−j]/(a−j)) may exceed p_{n−j+1} (when the best
--   level is exactly p_{n−j+1}, the previous step having found m = p_{n−j+1} just outside its
--   half-open interval), and the loop may end without stopping (then the level is p_{n−a+1}, not the
--   last m). Corrected: stop at the first j with m > p_{n−j} and return ctt(p, min(m, p_{n−j+1}));
--   if there is none return ctt(p, p_{n−a+1}). The corrected query checks the corrected algorithm
--   against every record's reduced_parts; the printed form lists the records on which the printed
--   algorithm (literally, and with only its first test repaired) returns something else.
-- covers: every Slow SetNim game; every position
-- needs: record
-- domain: SELECT n FROM slownim
WITH base AS (
    SELECT game, n, parts, moves[1]::INTEGER AS a, stacks::INTEGER AS k, reduced_parts,
           -- p_1 <= … <= p_n: the paper's canonical order, empty stacks first
           list_concat(list_transform(range(stacks - len(parts)), lambda i: 0), list_reverse(parts))
               AS p
    FROM slownim
), steps AS (
    SELECT *,
           list_transform(range(1, a),
               lambda j: {'j': j,
                          'm': coalesce(list_sum(p[1:k - j]), 0) // (a - j),
                          'lo': coalesce(p[k - j], 0),
                          'hi': p[k - j + 1]}) AS loop
    FROM base
), corrected AS (
    SELECT *,
           CASE WHEN p[k] * a <= coalesce(list_sum(p), 0) THEN p[k]
                ELSE coalesce(list_filter(loop, lambda t: t.m > t.lo)[1].m, p[k - a + 1]) END AS m0,
           coalesce(list_filter(loop, lambda t: t.m > t.lo)[1].hi, p[k - a + 1]) AS cap
    FROM steps
)
SELECT game, n, parts, a, least(m0, cap) AS level, reduced_parts,
       list_reverse_sort(list_filter(list_transform(p, lambda x: least(x, least(m0, cap))),
                                     lambda x: x > 0))::SMALLINT[] AS algorithm2_corrected
FROM corrected
WHERE list_reverse_sort(list_filter(list_transform(p, lambda x: least(x, least(m0, cap))),
                                    lambda x: x > 0))::SMALLINT[] IS DISTINCT FROM reduced_parts
ORDER BY game, n, parts
-- printed form:
WITH base AS (
    SELECT game, n, parts, moves[1]::INTEGER AS a, stacks::INTEGER AS k, reduced_parts,
           list_concat(list_transform(range(stacks - len(parts)), lambda i: 0), list_reverse(parts))
               AS p
    FROM slownim
), steps AS (
    SELECT *,
           list_transform(range(1, a),
               lambda j: {'j': j,
                          'm': coalesce(list_sum(p[1:k - j]), 0) // (a - j),
                          'lo': coalesce(p[k - j], 0),
                          'hi': p[k - j + 1]}) AS loop
    FROM base
), printed AS (
    -- literal: m = floor(s[n]/a), "if m·a <= s[n] then r(p) = p"
    SELECT game, n, parts, a, reduced_parts, 'first test always true' AS failure,
           CASE WHEN (coalesce(list_sum(p), 0) // a) * a <= coalesce(list_sum(p), 0) THEN parts END AS result
    FROM steps
    UNION ALL
    -- first test repaired (p_n·a <= s[n]), loop as printed, falling through with the last m
    SELECT game, n, parts, a, reduced_parts, 'loop as printed' AS failure,
           CASE WHEN p[k] * a <= coalesce(list_sum(p), 0) THEN parts
                ELSE list_reverse_sort(list_filter(list_transform(p,
                         lambda x: least(x, coalesce(
                             list_filter(loop, lambda t: t.lo < t.m AND t.m <= t.hi)[1].m,
                             loop[-1].m, p[k]))),
                         lambda x: x > 0))::SMALLINT[] END AS result
    FROM steps
)
SELECT game, n, parts, a, failure, result AS algorithm2_printed, reduced_parts
FROM printed
WHERE result IS DISTINCT FROM reduced_parts
ORDER BY failure, game, n, parts
