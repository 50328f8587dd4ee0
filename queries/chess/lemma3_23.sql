-- id: chess.lemma3_23
-- source: impartial-chess.txt, Lemma 3.23
-- kind: lemma
-- statement: Let M ∈ {Rook, Queen}, λ = (λ1, …, λr) and k = max(λ1, r). If λ ≤ S(k) in Young's
--   lattice (λ_i ≤ k − i + 1 for every i), then SG_M(λ) = k − 1.
-- covers: rook, queen; partitions contained in the staircase S(max(λ1, r))
-- needs: record
-- domain: SELECT n FROM rook WHERE list_bool_and(list_transform(parts, lambda x, i: x <= greatest(largest, num_parts) - i + 1))
--   UNION ALL SELECT n FROM queen WHERE list_bool_and(list_transform(parts, lambda x, i: x <= greatest(largest, num_parts) - i + 1))
SELECT 'rook' AS game, n, parts, sg, greatest(largest, num_parts) - 1 AS expected
FROM rook
WHERE list_bool_and(list_transform(parts, lambda x, i: x <= greatest(largest, num_parts) - i + 1))
  AND sg <> greatest(largest, num_parts) - 1
UNION ALL
SELECT 'queen', n, parts, sg, greatest(largest, num_parts) - 1
FROM queen
WHERE list_bool_and(list_transform(parts, lambda x, i: x <= greatest(largest, num_parts) - i + 1))
  AND sg <> greatest(largest, num_parts) - 1
