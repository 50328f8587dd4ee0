-- id: slownim.lemma3-2
-- source: slow-exact-k-nim.txt, Lemma 3.2 (reduced position)
-- kind: lemma
-- statement: In SN(n, n−1), k = n − 1, when reduction is needed after a move from a reduced position
--   p = (s, o) with α maximal stacks (largest stack p_n), then r(p') = (p_1 − 1, …, p_n − 1) if
--   s ≢ 0 mod k, and r(p') = (p_1 − 1, …, p_{n−α} − 1, p_n − 2, …, p_n − 2) if s ≡ 0 mod k; the
--   maximum p_n is even if 0 <= s < k and odd otherwise; and (s', o') of r(p') is: for s ≢ 0 mod k,
--   o' = n − o and s' = s + k − 1 (0 < s < k) or s − (k + 1) (k < s < 2k); for s = 0,
--   (k − 1 − α, n − o − α) with α <= min(n − o, n − 2); for s = k, (2k − 1 − α, n − o + α) with
--   α <= min(o, n − 2). Checked for every reduced record and every distinct move (omitted stack
--   height) whose option p', a record of the same game, is not reduced.
-- covers: SN(n, n−1) for every n >= 2 present; every reduced position and move needing reduction
-- needs: followers
-- domain: SELECT n FROM slownim WHERE stacks >= 2 AND moves = [stacks - 1] AND reduced
WITH base AS (
    SELECT game, n, parts, stacks::INTEGER AS nn, moves[1]::INTEGER AS k,
           sum_mod::INTEGER AS s, odd_stacks::INTEGER AS o, parts[1]::INTEGER AS top,
           len(list_filter(parts, lambda x: x = parts[1]))::INTEGER AS alpha,
           list_concat(parts, list_transform(range(stacks - len(parts)), lambda i: 0)) AS pad
    FROM slownim
    WHERE stacks >= 2 AND moves = [stacks - 1] AND reduced
), mv AS (
    SELECT base.*, v,
           list_transform(pad, lambda x, i: x - (i <> list_position(pad, v))::INTEGER) AS after
    FROM base, unnest(list_distinct(pad)) AS u(v)
), needs AS (
    SELECT m.*, c.reduced_parts AS r_child, c.sum_mod::INTEGER AS s_child, c.odd_stacks::INTEGER AS o_child,
           list_reverse_sort(list_filter(
               list_transform(m.pad,
                   lambda x: x - 1 - CASE WHEN m.s % m.k = 0 AND x = m.top THEN 1 ELSE 0 END),
               lambda x: x > 0))::SMALLINT[] AS r_lemma
    FROM mv AS m
    JOIN slownim AS c ON c.game = m.game
        AND record_key(c.n, c.ordinal) = part_key(list_reverse_sort(list_filter(m.after, lambda x: x > 0))::SMALLINT[])
    WHERE list_min(m.after) >= 0 AND NOT c.reduced
)
SELECT game, n, parts, s, o, alpha, v AS omitted, r_child, r_lemma, s_child, o_child
FROM needs
WHERE r_child IS DISTINCT FROM r_lemma
   OR (top % 2 = 0) <> (s < k)
   OR (s % k <> 0 AND (o_child <> nn - o
                       OR s_child <> CASE WHEN s < k THEN s + k - 1 ELSE s - (k + 1) END))
   OR (s = 0 AND (s_child <> k - 1 - alpha OR o_child <> nn - o - alpha OR alpha > least(nn - o, nn - 2)))
   OR (s = k AND (s_child <> 2 * k - 1 - alpha OR o_child <> nn - o + alpha OR alpha > least(o, nn - 2)))
ORDER BY game, n, parts, v
