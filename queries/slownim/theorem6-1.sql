-- id: slownim.theorem6-1
-- source: slow-exact-k-nim.txt, Theorem 6.1
-- kind: theorem
-- statement: In SN(n, A) with A = {1, n} (no reduction is ever needed): for odd n the P-positions
--   are the positions with Σ(p) even; for even n they are the positions with Σ(p) even and p_1 even,
--   where p_1 is the smallest of the n stacks (0 when fewer than n stacks are nonempty; the paper
--   orders stacks non-decreasingly, so p_1 is not our parts[1], the largest).
-- covers: SN(n, {1, n}) for every n >= 1 present (sn1_1 is A = {1} = {1, n} for n = 1, sn2_1-2,
--   sn3_1-3, sn4_1-4, …); every position
-- needs: record
-- domain: SELECT n FROM slownim WHERE moves[1] = 1 AND moves[-1] = stacks AND len(moves) <= 2
WITH t AS (
    SELECT game, n, parts, stacks, sg,
           CASE WHEN len(parts) < stacks THEN 0 ELSE parts[-1] END AS smallest
    FROM slownim
    WHERE moves[1] = 1 AND moves[-1] = stacks AND len(moves) <= 2
)
SELECT game, n, parts, smallest, sg
FROM t
WHERE (sg = 0) <> (n % 2 = 0 AND (stacks % 2 = 1 OR smallest % 2 = 0))
ORDER BY game, n, parts
