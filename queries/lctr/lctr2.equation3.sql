-- id: lctr2.equation3
-- source: lctr-sg-complexity.txt, Section 3.3, Equation 3
-- kind: observation
-- statement: In LCTR, SG(A[i,j]) = SG(A[i+1,j]) ▽ SG(A[i,j+1]) if A[i,j] is nonempty and 0 otherwise,
--   where a ▽ b = mex{a, b}. On records: SG(λ) = mex{SG(λ[1,0]), SG(λ[0,1])}, the empty partition
--   having value 0.
-- covers: lctr; every partition whose followers are present
-- domain: SELECT n FROM lctr
WITH f AS (
    SELECT a.n, a.parts, a.sg,
           CASE WHEN a.num_parts = 1 THEN 0 ELSE t.sg END AS t_sg,
           CASE WHEN a.largest = 1 THEN 0 ELSE l.sg END AS l_sg
    FROM lctr a
    LEFT JOIN lctr t ON record_key(t.n, t.ordinal) = part_key(a.parts[2:])
    LEFT JOIN lctr l ON record_key(l.n, l.ordinal) = part_key(list_filter(list_transform(a.parts, lambda x: x - 1), lambda x: x > 0))
)
SELECT n, parts, sg, t_sg, l_sg,
       CASE WHEN t_sg <> 0 AND l_sg <> 0 THEN 0 WHEN t_sg <> 1 AND l_sg <> 1 THEN 1 ELSE 2 END AS expected
FROM f
WHERE t_sg IS NOT NULL AND l_sg IS NOT NULL
  AND sg <> CASE WHEN t_sg <> 0 AND l_sg <> 0 THEN 0 WHEN t_sg <> 1 AND l_sg <> 1 THEN 1 ELSE 2 END
