-- id: chess.thm3_16
-- source: impartial-chess.txt, Theorem 3.16
-- kind: theorem
-- statement: Let λ = (λ1, …, λr) ≠ (1). Then (Rook, λ) is a losing position iff λ has rank 0 and
--   λ[1,1] ≥ S(r−1) in Young's lattice, i.e. λ1 = r and λ_m ≥ r − m + 2 for m = 2, …, r.
-- covers: rook; every partition except (1)
-- needs: record
-- domain: SELECT n FROM rook WHERE n > 1
SELECT 'rook' AS game, n, parts, sg, rank
FROM rook
WHERE n > 1
  AND (sg = 0) <> (rank = 0 AND coalesce(list_bool_and(
          list_transform(parts, lambda x, m: m = 1 OR x >= num_parts - m + 2)), true))
