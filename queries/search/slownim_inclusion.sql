-- description: Open Problem 3 of slow-exact-k-nim.txt: for A = {k, s}, when are the P-positions of
--  SN(s, {k, s}) a subset of those of SN(s, {k})? For every pair of such games in `slownim` (same
--  s, 1 <= k < s), joined on the position (stacks, parts) over the totals N both games hold: the
--  positions compared, the P-positions of each game and of both, the counterexamples (P in
--  SN(s,{k,s}) but N in SN(s,{k})) with the first five (by N, then parts),
--  the counterexamples among reduced positions, the converse count (P in SN(s,{k}) but not in
--  SN(s,{k,s})), and the same inclusion for misère play. included = no counterexample up to the
--  bound. (Remark 6.2: included for k = s − 1, and for k = 1 with s odd.)
WITH big AS (
    SELECT stacks AS s, moves[1] AS k, n, parts, sg, sg_misere, reduced
    FROM slownim
    WHERE len(moves) = 2 AND moves[2] = stacks AND moves[1] < stacks
),
small AS (
    SELECT stacks AS s, moves[1] AS k, n, parts, sg, sg_misere
    FROM slownim
    WHERE len(moves) = 1
),
pairs AS (
    SELECT b.s, b.k, b.n, b.parts, b.reduced,
        b.sg AS sg_ks, sm.sg AS sg_k, b.sg_misere AS sgm_ks, sm.sg_misere AS sgm_k
    FROM big AS b
    JOIN small AS sm ON sm.s = b.s AND sm.k = b.k AND sm.n = b.n AND sm.parts = b.parts
)
SELECT
    s,
    k,
    'sn' || s || '_' || k || '-' || s AS game_ks,
    'sn' || s || '_' || k AS game_k,
    min(n) AS min_n,
    max(n) AS max_n,
    count(*) AS positions,
    count(*) FILTER (WHERE sg_ks = 0) AS p_ks,
    count(*) FILTER (WHERE sg_k = 0) AS p_k,
    count(*) FILTER (WHERE sg_ks = 0 AND sg_k = 0) AS p_both,
    count(*) FILTER (WHERE sg_ks = 0 AND sg_k <> 0) AS counterexamples,
    count(*) FILTER (WHERE sg_ks = 0 AND sg_k <> 0) = 0 AS included,
    array_to_string(list_transform(
        list_sort(list([n::SMALLINT] || parts) FILTER (WHERE sg_ks = 0 AND sg_k <> 0))[:5],
        lambda q: '(' || array_to_string(q[2:], ',') || ')'), ' ') AS first_counterexamples,
    count(*) FILTER (WHERE sg_ks = 0 AND sg_k <> 0 AND reduced) AS counterexamples_reduced,
    count(*) FILTER (WHERE sg_k = 0 AND sg_ks <> 0) AS converse_counterexamples,
    count(*) FILTER (WHERE sgm_ks = 0) AS misere_p_ks,
    count(*) FILTER (WHERE sgm_k = 0) AS misere_p_k,
    count(*) FILTER (WHERE sgm_ks = 0 AND sgm_k <> 0) AS misere_counterexamples,
    array_to_string(list_transform(
        list_sort(list([n::SMALLINT] || parts) FILTER (WHERE sgm_ks = 0 AND sgm_k <> 0))[:5],
        lambda q: '(' || array_to_string(q[2:], ',') || ')'), ' ') AS first_misere_counterexamples
FROM pairs
GROUP BY s, k
ORDER BY s, k
