-- id: slownim.theorem4-1
-- source: slow-exact-k-nim.txt, Theorem 4.1 (General Structure Result)
-- kind: theorem
-- statement: In SN(n, A), let o be the number of odd stacks of a position p of the full game graph
--   (p itself, reduced or not). If o = 0 then p is a P-position; if o ∈ A then p is an N-position.
-- covers: every Slow SetNim game; every position
-- needs: record
-- domain: SELECT n FROM slownim
SELECT game, n, parts, moves, odd_stacks(parts) AS o, sg
FROM slownim
WHERE (odd_stacks(parts) = 0 AND sg <> 0)
   OR (list_contains(moves, odd_stacks(parts)) AND sg = 0)
ORDER BY game, n, parts
