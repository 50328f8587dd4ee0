-- id: slownim.theorem2-3
-- source: slow-exact-k-nim.txt, Theorem 2.3 (Theorem 2.2 is the case |A| = 1)
-- kind: theorem
-- statement: Let n >= 3. A position p of SN(n, A) is reduced if and only if it satisfies the NIRB
--   condition for a = min A, a·max(p) <= Σ(p). Checked on every record: the `reduced` flag agrees
--   with NIRB, and a position is its own reduced form (parts = reduced_parts, the reduced form
--   being computed by chopping, Lemma 2.7) exactly when it satisfies NIRB.
-- covers: every Slow SetNim game SN(n, A) with n >= 3; every position
-- needs: record
-- domain: SELECT n FROM slownim WHERE stacks >= 3
SELECT game, n, parts, moves, reduced, reduced_parts,
       is_nim_reduced(parts, moves[1]) AS nirb
FROM slownim
WHERE stacks >= 3
  AND (reduced IS DISTINCT FROM is_nim_reduced(parts, moves[1])
       OR (parts = reduced_parts) IS DISTINCT FROM is_nim_reduced(parts, moves[1]))
ORDER BY game, n, parts
