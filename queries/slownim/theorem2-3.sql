-- id: slownim.theorem2-3
-- source: slow-exact-k-nim.txt, Theorem 2.3 (Theorem 2.2 is the case |A| = 1), with the definition of
--   reduced positions in Section 2.1
-- kind: theorem
-- statement: Let n >= 3. A position p of SN(n, A) is reduced if and only if it satisfies the NIRB
--   condition for a = min A, a·max(p) <= Σ(p). Reduced is the paper's play definition (Section 2.1):
--   u(p) = 0, i.e. for every stack there is a sequence of legal moves that empties it. Checked on every
--   record against that definition, computed from the game graph alone: a recursive query over N finds,
--   for each position, which stacks some play empties; NIRB (macro is_nim_reduced) and the stored
--   `reduced` column must both agree with "every stack can be emptied".
-- covers: every Slow SetNim game SN(n, A) with n >= 3; every position whose followers' N are in the store
-- needs: followers
-- domain: SELECT n FROM slownim WHERE stacks >= 3
-- The recursion (USING KEY keeps every level's rows in recurring.play) handles one N per step, from the
-- empty position (N = 0) up. e is a bitmask over the stacks of p (bit i: stack i + 1). A play that empties
-- stack i starts with a move (a mask of sn_move_masks, which takes the token from the last stacks of each
-- block of equal heights); the stack is then, equal stacks being interchangeable, either an untouched stack
-- of its block (the block's first, still at its height, bit of the block's first index in the follower's
-- e) or a decremented one (the block's last: emptied if it had one token, else bit of the last index).
WITH RECURSIVE
pos AS (
    SELECT game, n, parts, moves, reduced FROM slownim WHERE stacks >= 3
),
mv AS (
    SELECT game, n, parts, m, list_filter(sn_after(parts, m), lambda x: x > 0) AS q
    FROM (SELECT game, n, parts, unnest(sn_move_masks(parts, moves)) AS m FROM pos)
),
play(game, n, parts, e) USING KEY (game, parts) AS (
    SELECT DISTINCT game, 0::BIGINT, []::SMALLINT[], 0::BIGINT FROM pos
    UNION
    SELECT x.game, x.n, x.parts,
           coalesce(bit_or(list_sum(list_transform(range(len(x.parts)), lambda i:
               CASE WHEN ((mv.m >> (list_position(x.parts, x.parts[i + 1]) - 1)) & 1 = 0
                          AND (f.e >> (list_position(x.parts, x.parts[i + 1]) - 1)) & 1 = 1)
                      OR ((mv.m >> (list_position(x.parts, x.parts[i + 1]) + len(list_filter(x.parts, lambda y: y = x.parts[i + 1])) - 2)) & 1 = 1
                          AND (x.parts[i + 1] = 1
                               OR (f.e >> (list_position(x.parts, x.parts[i + 1]) + len(list_filter(x.parts, lambda y: y = x.parts[i + 1])) - 2)) & 1 = 1))
                    THEN 1::BIGINT << i ELSE 0 END))), 0)
    FROM pos x
    JOIN (SELECT game, max(n) + 1 AS level FROM play GROUP BY game) w ON w.game = x.game AND x.n = w.level
    LEFT JOIN mv ON mv.game = x.game AND mv.parts = x.parts
    LEFT JOIN recurring.play f ON f.game = mv.game AND f.parts = mv.q
    GROUP BY x.game, x.n, x.parts
)
SELECT p.game, p.n, p.parts, p.moves, p.reduced, play.e, play.e = (1 << len(p.parts)) - 1 AS every_stack_emptiable,
       is_nim_reduced(p.parts, p.moves[1]) AS nirb
FROM pos p JOIN play USING (game, parts)
WHERE every_stack_emptiable IS DISTINCT FROM nirb OR p.reduced IS DISTINCT FROM every_stack_emptiable
ORDER BY p.game, p.n, p.parts
