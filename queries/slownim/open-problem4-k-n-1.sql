-- id: slownim.open-problem4-k-n-1
-- source: slow-exact-k-nim.txt, Open Problem 4 (Section 6), found by `partgames search pset_classes`
-- kind: conjecture
-- statement: In SN(n, A) with A = {1, 2, …, n−1} (play on at most n−1 stacks), p is a P-position
--   iff the number o of odd stacks is 0 or n (every stack even, or every stack odd).
-- covers: SN(n, {1..n−1}) for every n >= 3 present (k = n − 1 >= 2: sn3_1-2, sn4_1-2-3, sn5_1-2-3-4, …);
--   every position (1 ∈ A: every position is reduced)
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks >= 3 AND moves = range(1, stacks)
SELECT game, n, parts, odd_stacks, sg
FROM slownim
WHERE stacks >= 3 AND moves = range(1, stacks)
  AND (sg = 0) <> (odd_stacks = 0 OR odd_stacks = stacks)
ORDER BY game, n, parts
