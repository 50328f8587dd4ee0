-- id: slownim.lemma3-1
-- source: slow-exact-k-nim.txt, Lemma 3.1 (options when no reduction is needed)
-- kind: lemma
-- statement: In SN(n, k) with k = n − 1, let p be a reduced position with s = Σ(p) mod 2k and o odd
--   stacks. When the option p' reached by omitting one stack (and taking a token from each of the
--   others) is reduced, then s' = (s − k) mod 2k, and o' = n − o + 1 if the omitted stack is odd,
--   o' = n − o − 1 if it is even. Checked for every reduced record and every distinct move (one per
--   height of the omitted stack), p' being looked up as a record of the same game.
-- covers: SN(n, n−1) for every n >= 2 present; every reduced position and move
-- needs: followers
-- domain: SELECT n FROM slownim WHERE stacks >= 2 AND moves = [stacks - 1] AND reduced
WITH base AS (
    SELECT game, n, parts, stacks::INTEGER AS nn, moves[1]::INTEGER AS k,
           sum_mod::INTEGER AS s, odd_stacks::INTEGER AS o,
           list_concat(parts, list_transform(range(stacks - len(parts)), lambda i: 0)) AS pad
    FROM slownim
    WHERE stacks >= 2 AND moves = [stacks - 1] AND reduced
), mv AS (
    SELECT base.*, v,
           list_transform(pad, lambda x, i: x - (i <> list_position(pad, v))::INTEGER) AS after
    FROM base, unnest(list_distinct(pad)) AS u(v)
), legal AS (
    SELECT *, list_reverse_sort(list_filter(after, lambda x: x > 0))::SMALLINT[] AS child
    FROM mv
    WHERE list_min(after) >= 0
)
SELECT m.game, m.n, m.parts, m.s, m.o, m.v AS omitted, m.child,
       coalesce(c.sum_mod, 0) AS s_child, coalesce(c.odd_stacks, 0) AS o_child
FROM legal AS m
LEFT JOIN slownim AS c ON c.game = m.game AND record_key(c.n, c.ordinal) = part_key(m.child)
WHERE coalesce(c.reduced, len(m.child) = 0)
  AND (coalesce(c.sum_mod, 0) <> ((m.s - m.k) % (2 * m.k) + 2 * m.k) % (2 * m.k)
       OR coalesce(c.odd_stacks, 0) <> m.nn - m.o + CASE WHEN m.v % 2 = 1 THEN 1 ELSE -1 END)
ORDER BY m.game, m.n, m.parts, m.v
