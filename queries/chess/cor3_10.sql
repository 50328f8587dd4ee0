-- id: chess.cor3_10
-- source: impartial-chess.txt, Corollary 3.10
-- kind: corollary
-- statement: If every part of λ appears an even number of times, then λ[i,j] ∈ P_King iff both i
--   and λ_{i+1} − j are odd. Checked on the records of the sub-partitions μ = λ[i,j]: these are
--   exactly the partitions whose multiplicities are all even except possibly that of the largest
--   part (equivalently: all column lengths, the parts of μ', have the same parity), the parity of
--   that first multiplicity is the parity of i, and μ1 = λ_{i+1} − j. So: for every such King
--   record, SG = 0 iff the largest part and its multiplicity are both odd.
-- covers: king; partitions whose column lengths all have the same parity
-- needs: record
-- domain: SELECT n FROM king WHERE list_bool_and(list_transform(conjugate, lambda x: x % 2 = conjugate[1] % 2))
SELECT 'king' AS game, n, parts, conjugate[-1] AS first_multiplicity, sg
FROM king
WHERE list_bool_and(list_transform(conjugate, lambda x: x % 2 = conjugate[1] % 2))
  AND (sg = 0) <> (conjugate[-1] % 2 = 1 AND largest % 2 = 1)
