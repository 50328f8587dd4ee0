-- id: chess.thm4_12_witnesses
-- source: impartial-chess.txt, Theorem 4.12, proof
-- kind: theorem
-- statement: For ℓ ≥ 3 and k > ℓ, (Rook, (ℓ+1, ℓ^k)) is not miserable (it has a move to a
--   (0,1)-position but none to a (1,0)-position), so (Rook, S1) is not miserable.
-- covers: rook; the partitions (ℓ+1, ℓ^k) with ℓ ≥ 3, k > ℓ
-- needs: record
-- domain: SELECT n FROM rook WHERE distinct_sizes = 2 AND conjugate[-1] = 1 AND largest = parts[-1] + 1
--   AND parts[-1] >= 3 AND num_parts - 1 > parts[-1]
SELECT 'rook' AS game, n, parts, parts[-1] AS l, num_parts - 1 AS k, sg, sg_misere, miserable
FROM rook
WHERE distinct_sizes = 2 AND conjugate[-1] = 1 AND largest = parts[-1] + 1
  AND parts[-1] >= 3 AND num_parts - 1 > parts[-1]
  AND miserable
