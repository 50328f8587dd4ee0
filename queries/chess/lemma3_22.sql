-- id: chess.lemma3_22
-- source: impartial-chess.txt, Lemma 3.22
-- kind: lemma
-- statement: Let λ = (λ1, …, λr). If λ1 − 1 > 2(r − 1) or r − 1 > 2(λ1 − 1), then λ ∈ N_Queen.
-- covers: queen; partitions with λ1 − 1 > 2(r − 1) or r − 1 > 2(λ1 − 1)
-- needs: record
-- domain: SELECT n FROM queen WHERE largest - 1 > 2 * (num_parts - 1) OR num_parts - 1 > 2 * (largest - 1)
SELECT 'queen' AS game, n, parts, largest, num_parts AS r, sg
FROM queen
WHERE (largest - 1 > 2 * (num_parts - 1) OR num_parts - 1 > 2 * (largest - 1)) AND sg = 0
