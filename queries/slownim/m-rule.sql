-- id: slownim.m-rule
-- source: slow-exact-k-nim.txt, Section 1 (results of [10] and [11] on SN(k+1, k) quoted there)
-- kind: erratum
-- statement: In Slow Exact k-Nim with k = n − 1, SN(n, n−1), the M-rule - omit a maximal stack if
--   all n stack heights are odd, otherwise omit a smallest even stack (an empty stack is even), and
--   take one token from each other stack - is optimal both in normal play [11] and in misère play
--   [10]. Optimal play wins from every winning position, so the M-rule move from an N-position must
--   reach a P-position (normal: sg 0; misère: sg_misere 0; the position with no tokens has sg 0 and
--   sg_misere 1). Remoteness is not recorded, so only this winning part of optimality is checked.
-- correction: docs/definitions.md §8.3: the M-rule as paraphrased is not optimal in misère play: in SN(3,2) the
--   misère N-position (1,1,2) has the M-rule move (omit the 2) to (0,0,2), a terminal position, which
--   wins for the opponent in misère play, while (0,1,1) wins. The corrected statement keeps the
--   normal-play claim; the printed form lists the misère N-positions whose M-rule move reaches a
--   misère N-position.
-- covers: SN(n, n−1) for every n >= 2 present (sn2_1, sn3_2, sn4_3, sn5_4, …); every non-terminal
--   position
-- needs: followers
-- domain: SELECT n FROM slownim WHERE stacks >= 2 AND moves = [stacks - 1] AND len(parts) >= stacks - 1
WITH base AS (
    SELECT game, n, parts, sg, sg_misere,
           list_concat(parts, list_transform(range(stacks - len(parts)), lambda i: 0)) AS pad
    FROM slownim
    WHERE stacks >= 2 AND moves = [stacks - 1] AND len(parts) >= stacks - 1
), rule AS (
    SELECT *,
           CASE WHEN len(list_filter(pad, lambda x: x % 2 = 0)) = 0 THEN 1
                ELSE list_position(pad, list_min(list_filter(pad, lambda x: x % 2 = 0))) END AS omit
    FROM base
), mv AS (
    SELECT *, list_reverse_sort(list_filter(list_transform(pad, lambda x, i: x - (i <> omit)::INTEGER),
                                            lambda x: x > 0))::SMALLINT[] AS m_move
    FROM rule
)
SELECT mv.game, mv.n, mv.parts, mv.pad[mv.omit] AS omitted, mv.m_move, mv.sg, coalesce(r.sg, 0) AS sg_after
FROM mv
LEFT JOIN slownim AS r ON r.game = mv.game AND record_key(r.n, r.ordinal) = part_key(mv.m_move)
WHERE mv.sg <> 0 AND coalesce(r.sg, 0) <> 0
ORDER BY mv.game, mv.n, mv.parts
-- printed form:
WITH base AS (
    SELECT game, n, parts, sg, sg_misere,
           list_concat(parts, list_transform(range(stacks - len(parts)), lambda i: 0)) AS pad
    FROM slownim
    WHERE stacks >= 2 AND moves = [stacks - 1] AND len(parts) >= stacks - 1
), rule AS (
    SELECT *,
           CASE WHEN len(list_filter(pad, lambda x: x % 2 = 0)) = 0 THEN 1
                ELSE list_position(pad, list_min(list_filter(pad, lambda x: x % 2 = 0))) END AS omit
    FROM base
), mv AS (
    SELECT *, list_reverse_sort(list_filter(list_transform(pad, lambda x, i: x - (i <> omit)::INTEGER),
                                            lambda x: x > 0))::SMALLINT[] AS m_move
    FROM rule
)
SELECT mv.game, mv.n, mv.parts, mv.pad[mv.omit] AS omitted, mv.m_move,
       mv.sg, coalesce(r.sg, 0) AS sg_after, mv.sg_misere, coalesce(r.sg_misere, 1) AS sg_misere_after
FROM mv
LEFT JOIN slownim AS r ON r.game = mv.game AND record_key(r.n, r.ordinal) = part_key(mv.m_move)
WHERE (mv.sg <> 0 AND coalesce(r.sg, 0) <> 0)
   OR (mv.sg_misere <> 0 AND coalesce(r.sg_misere, 1) <> 0)
ORDER BY mv.game, mv.n, mv.parts
