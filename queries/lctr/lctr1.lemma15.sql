-- id: lctr1.lemma15
-- source: lctr-some-results.txt, Lemma 15
-- kind: lemma
-- statement: Let r, m, s be positive integers with m > r. Then SG((r+2)^m, r^s) = 0 if r + m is even and
--   1 if r + m is odd.
-- covers: lctr; thick Γ-partitions (a^m, r^s) with a = r + 2 and m > r
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 2 AND largest = parts[num_parts] + 2
--   AND conjugate[largest] > parts[num_parts]
WITH g AS (
    SELECT n, parts, sg, largest AS a, conjugate[largest] AS m, parts[num_parts] AS r
    FROM lctr
    WHERE distinct_sizes = 2
)
SELECT n, parts, sg, (r + m) % 2 AS expected
FROM g
WHERE a = r + 2 AND m > r AND sg <> (r + m) % 2
