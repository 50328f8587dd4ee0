-- id: lctrd.d2_zero_propagates
-- source: lctr-sg-complexity.txt, Lemma 15.1 (§8 contrasts d-dimensional LCTR with it)
-- kind: lemma
-- statement: For d = 2 zero values propagate along the diagonal: a partition π whose diagonal
--   shift π⁺ (one layer removed in every direction, π[1,1]; macro diagonal_shift) is a nonempty
--   P-position is a P-position. Checked on lctr_d2, d-dimensional LCTR's d = 2 (LCTR itself,
--   docs/definitions.md §2.6), through the corners as for every d.
-- covers: lctr_d2; every partition with π⁺ a nonempty P-position
-- domain: SELECT p.n FROM lctr_d2 p JOIN lctr_d2 q ON q.corners = diagonal_shift(p.corners, p.dims)
--   WHERE q.sg = 0
SELECT p.n, p.parts, p.sg, q.parts AS shift_parts, q.sg AS shift_sg
FROM lctr_d2 p
JOIN lctr_d2 q ON q.corners = diagonal_shift(p.corners, p.dims)
WHERE q.sg = 0 AND p.sg <> 0
