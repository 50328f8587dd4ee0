-- id: lctrd.zero_values_do_not_propagate
-- source: lctr-sg-complexity.txt §8, Multidimensional LCTR ("zero values do not propagate, hence
--   there is no hope for the similar algorithm to work")
-- kind: claim
-- statement: For d = 3 a P-position does not propagate along the diagonal as in LCTR (Lemma 15.1:
--   for d = 2, sg(π⁺) = 0 with π⁺ nonempty gives sg(π) = 0, π⁺ being π with one layer removed in
--   every direction, macro diagonal_shift). Witness: the plane partition π with corners (2,2,3),
--   (2,3,2), (3,2,2) (n = 20) has sg(π) ≠ 0, and π⁺, with corners (1,1,2), (1,2,1), (2,1,1)
--   (n = 4), has sg(π⁺) = 0. It is the only such start of n ≤ 20. (π⁺'s n, 4, bounds the join:
--   it reads the records of n = 4, not every lctr_d3 record.)
-- covers: lctr_d3; the witness π (n = 20) and its diagonal shift (n = 4)
-- witnesses: SELECT 'lctr_d3 corners (2,2,3),(2,3,2),(3,2,2)' AS witness,
--   stored('lctr_d3', 20) AND stored('lctr_d3', 4) AS present
-- domain: SELECT n FROM lctr_d3 WHERE n = 20 AND corners = [2, 2, 3, 2, 3, 2, 3, 2, 2]::SMALLINT[]
SELECT p.n, p.corners, p.sg, q.n AS shift_n, q.corners AS shift_corners, q.sg AS shift_sg
FROM lctr_d3 p
LEFT JOIN lctr_d3 q ON q.n = 4 AND q.corners = diagonal_shift(p.corners, p.dims)
WHERE p.n = 20 AND p.corners = [2, 2, 3, 2, 3, 2, 3, 2, 2]::SMALLINT[]
  AND (p.sg = 0 OR q.sg IS DISTINCT FROM 0)
