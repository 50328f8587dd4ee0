-- id: slownim.remark4-2
-- source: slow-exact-k-nim.txt, Remark 4.2
-- kind: observation
-- statement: A reduced position is the reduction of either no other position or infinitely many:
--   if q is not reduced, tokens added to a stack with unplayable tokens, for example a largest
--   stack, are unplayable too, so they do not change the reduction. Checked: for every non-reduced
--   record q whose successor with one more token on a largest stack is present, both have the same
--   reduced form and that successor is not reduced either.
-- covers: every Slow SetNim game; every non-reduced position with N < the largest N computed
-- needs: followers
-- domain: SELECT q.n FROM slownim AS q JOIN slownim AS b ON b.game = q.game
--   AND record_key(b.n, b.ordinal) = part_key(list_concat([q.parts[1] + 1], q.parts[2:])::SMALLINT[]) WHERE NOT q.reduced
SELECT q.game, q.n, q.parts, q.reduced_parts, b.parts AS bigger, b.reduced AS bigger_reduced,
       b.reduced_parts AS bigger_reduced_parts
FROM slownim AS q
JOIN slownim AS b ON b.game = q.game AND record_key(b.n, b.ordinal) = part_key(list_concat([q.parts[1] + 1], q.parts[2:])::SMALLINT[])
WHERE NOT q.reduced
  AND (b.reduced OR b.reduced_parts IS DISTINCT FROM q.reduced_parts)
ORDER BY q.game, q.n, q.parts
