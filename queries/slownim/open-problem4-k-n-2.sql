-- id: slownim.open-problem4-k-n-2
-- source: slow-exact-k-nim.txt, Open Problem 4 (Section 6), found by `partgames search pset_classes`
-- kind: conjecture
-- statement: In SN(n, A) with A = {1, 2, …, n−2} (play on at most n−2 stacks), n >= 4, p is a
--   P-position iff its smallest stack p_1 is even and the number o of odd stacks is 0 or n−1 (every
--   stack even, or every stack but the smallest odd). p_1 is the smallest of the n stacks, 0 when
--   one is empty.
-- covers: SN(n, {1..n−2}) for every n >= 4 present (k = n − 2 >= 2: sn4_1-2, sn5_1-2-3, sn6_1-2-3-4, …);
--   every position (1 ∈ A: every position is reduced)
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks >= 4 AND moves = range(1, stacks - 1)
WITH t AS (
    SELECT game, n, parts, stacks, odd_stacks, sg,
           CASE WHEN len(parts) < stacks THEN 0 ELSE parts[-1] END AS smallest
    FROM slownim
    WHERE stacks >= 4 AND moves = range(1, stacks - 1)
)
SELECT game, n, parts, smallest, odd_stacks, sg
FROM t
WHERE (sg = 0) <> (smallest % 2 = 0 AND (odd_stacks = 0 OR odd_stacks = stacks - 1))
ORDER BY game, n, parts
