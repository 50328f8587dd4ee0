-- id: chess.sec5_golden
-- source: impartial-chess.txt, Section 5 (on Lemma 3.22, citing Wythoff)
-- kind: erratum
-- statement: For rectangles the coefficient 2 in Lemma 3.22 can be replaced with the golden ratio
--   φ = (1 + √5)/2: if λ1 − 1 > φ(r − 1) or r − 1 > φ(λ1 − 1) then (c^r) ∈ N_Queen.
-- correction: Not in docs/definitions.md §8 (found by this catalogue). Read literally the remark is false: the
--   Wythoff P-positions (a, b), a < b, all have b > φa, e.g. (3^2) (a = 1, b = 2 > φ) is a Queen
--   P-position, which the same Section 5 quotes. What holds (b − φa < 1/φ for every Wythoff
--   P-position) is the golden-ratio bound on c and r themselves: if λ1 > φ·r or r > φ·λ1 then
--   (c^r) ∈ N_Queen. The corrected query checks that form, the printed form the literal one.
-- covers: queen; rectangles R(r,c), rows and columns included
-- needs: record
-- domain: SELECT n FROM queen WHERE distinct_sizes = 1
SELECT 'queen' AS game, n, parts, num_parts AS r, largest AS c, sg
FROM queen
WHERE distinct_sizes = 1 AND sg = 0
  AND (largest > num_parts * (1 + sqrt(5)) / 2 OR num_parts > largest * (1 + sqrt(5)) / 2)
-- printed form:
SELECT 'queen' AS game, n, parts, num_parts AS r, largest AS c, sg
FROM queen
WHERE distinct_sizes = 1 AND sg = 0
  AND (largest - 1 > (num_parts - 1) * (1 + sqrt(5)) / 2 OR num_parts - 1 > (largest - 1) * (1 + sqrt(5)) / 2)
