-- id: lctr1.lemma16
-- source: lctr-some-results.txt, Lemma 16
-- kind: erratum
-- statement: Let m, n, r, s be positive integers with n > r + 2 and m > r. If n − r is even, then
--   SG(n^m, r^s) = 0 if r + m is even and 1 if r + m is odd. If n − r is odd, then SG(n^m, r^s) = 0 if
--   m = r, or m − r is odd and m > 3; 1 if m = r + 1, or m − r is even and m > 4; 2 if m = r + 2.
-- covers: lctr; thick Γ-partitions (n^m, r^s) with n > r + 2 and m > r
-- correction: docs/definitions.md §8.1: for n − r odd the printed cases overlap (m = r + 1 with m > 3; m = r + 2 with
--   m > 4). Correct, with k = m − r: k = 1 → 1, k = 2 → 2, odd k ≥ 3 → 0, even k ≥ 4 → 1 (independent
--   of s). The even case is unchanged. The printed form reads each printed case as an implication; its
--   smallest counterexample is (6^4, 3) with n = 27.
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 2 AND largest > parts[num_parts] + 2
--   AND conjugate[largest] > parts[num_parts]
WITH g AS (
    SELECT n, parts, sg, largest AS a, conjugate[largest] AS m, parts[num_parts] AS r
    FROM lctr
    WHERE distinct_sizes = 2
),
e AS (
    SELECT *, m - r AS k,
           CASE WHEN (a - r) % 2 = 0 THEN (r + m) % 2
                WHEN m - r = 1 THEN 1
                WHEN m - r = 2 THEN 2
                WHEN (m - r) % 2 = 1 THEN 0
                ELSE 1 END AS expected
    FROM g
    WHERE a > r + 2 AND m > r
)
SELECT n, parts, a AS big, m, r, k, sg, expected
FROM e
WHERE sg <> expected
-- printed form:
WITH g AS (
    SELECT n, parts, sg, largest AS a, conjugate[largest] AS m, parts[num_parts] AS r
    FROM lctr
    WHERE distinct_sizes = 2
)
SELECT n, parts, a AS big, m, r, sg
FROM g
WHERE a > r + 2 AND m > r
  AND CASE WHEN (a - r) % 2 = 0 THEN sg <> (r + m) % 2
           ELSE ((m = r OR ((m - r) % 2 = 1 AND m > 3)) AND sg <> 0)
             OR ((m = r + 1 OR ((m - r) % 2 = 0 AND m > 4)) AND sg <> 1)
             OR (m = r + 2 AND sg <> 2) END
