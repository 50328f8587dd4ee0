-- id: lctr2.equation4
-- source: lctr-sg-complexity.txt, Section 3.3, Equation 4
-- kind: erratum
-- statement: In Downright, SG(A[i,j]) = 0 if λ[i,j] = (1); mex{SG(A[i,j+1])} if λ[i,j] = (c), c ≥ 2;
--   mex{SG(A[i+1,j])} if λ[i,j] = (1^r), r ≥ 2; and SG(A[i,j+1]) ▽ SG(A[i,j+1]) otherwise.
-- covers: downright; every partition whose followers are present
-- correction: a misprint beyond docs/definitions.md §8 (queries/ERRATA.md): the last case prints SG(A[i,j+1]) ▽ SG(A[i,j+1]),
--   ignoring the move down; it must be SG(A[i+1,j]) ▽ SG(A[i,j+1]) (as in Equation 3 and the proof of
--   Lemma 4). The printed form uses mex{SG(λ[0,1])} in the last case.
-- domain: SELECT n FROM downright
WITH f AS (
    SELECT a.n, a.parts, a.sg, a.num_parts, a.largest, t.sg AS t_sg, l.sg AS l_sg
    FROM downright a
    LEFT JOIN downright t ON a.num_parts > 1 AND record_key(t.n, t.ordinal) = part_key(a.parts[2:])
    LEFT JOIN downright l ON a.largest > 1
        AND record_key(l.n, l.ordinal) = part_key(list_filter(list_transform(a.parts, lambda x: x - 1), lambda x: x > 0))
),
e AS (
    SELECT *,
           CASE WHEN num_parts = 1 AND largest = 1 THEN 0
                WHEN num_parts = 1 THEN CASE WHEN l_sg = 0 THEN 1 ELSE 0 END
                WHEN largest = 1 THEN CASE WHEN t_sg = 0 THEN 1 ELSE 0 END
                WHEN t_sg <> 0 AND l_sg <> 0 THEN 0
                WHEN t_sg <> 1 AND l_sg <> 1 THEN 1
                ELSE 2 END AS expected
    FROM f
    WHERE (num_parts = 1 OR t_sg IS NOT NULL) AND (largest = 1 OR l_sg IS NOT NULL)
)
SELECT n, parts, sg, t_sg, l_sg, expected
FROM e
WHERE sg <> expected
-- printed form:
WITH f AS (
    SELECT a.n, a.parts, a.sg, a.num_parts, a.largest, t.sg AS t_sg, l.sg AS l_sg
    FROM downright a
    LEFT JOIN downright t ON a.num_parts > 1 AND record_key(t.n, t.ordinal) = part_key(a.parts[2:])
    LEFT JOIN downright l ON a.largest > 1
        AND record_key(l.n, l.ordinal) = part_key(list_filter(list_transform(a.parts, lambda x: x - 1), lambda x: x > 0))
),
e AS (
    SELECT *,
           CASE WHEN num_parts = 1 AND largest = 1 THEN 0
                WHEN num_parts = 1 THEN CASE WHEN l_sg = 0 THEN 1 ELSE 0 END
                WHEN largest = 1 THEN CASE WHEN t_sg = 0 THEN 1 ELSE 0 END
                ELSE CASE WHEN l_sg = 0 THEN 1 ELSE 0 END END AS printed
    FROM f
    WHERE (num_parts = 1 OR t_sg IS NOT NULL) AND (largest = 1 OR l_sg IS NOT NULL)
)
SELECT n, parts, sg, t_sg, l_sg, printed
FROM e
WHERE sg <> printed
