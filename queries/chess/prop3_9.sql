-- id: chess.prop3_9
-- source: impartial-chess.txt, Proposition 3.9
-- kind: proposition
-- statement: (1) If every part of λ appears an even number of times, then λ[i,j] ∈ N_King for all
--   even i. (2) If every part of λ is even, then λ[i,j] ∈ N_King for all even j.
--   Checked on the records of the sub-partitions: for (1), λ[i,j] with i even again has every
--   multiplicity even, and every such partition μ is μ[0,0]; for (2), λ[i,j] with j even again has
--   only even parts. So the statement is equivalent to: every King record whose parts all have even
--   multiplicity (equivalently, whose conjugate has only even parts), and every King record with only
--   even parts, has SG ≠ 0.
-- covers: king; partitions with all multiplicities even; partitions with all parts even
-- needs: record
-- domain: SELECT n FROM king WHERE list_bool_and(list_transform(conjugate, lambda x: x % 2 = 0))
--   OR list_bool_and(list_transform(parts, lambda x: x % 2 = 0))
SELECT 'king' AS game, n, parts, sg,
       CASE WHEN list_bool_and(list_transform(conjugate, lambda x: x % 2 = 0))
            THEN 'all multiplicities even' ELSE 'all parts even' END AS hypothesis
FROM king
WHERE sg = 0
  AND (list_bool_and(list_transform(conjugate, lambda x: x % 2 = 0))
       OR list_bool_and(list_transform(parts, lambda x: x % 2 = 0)))
