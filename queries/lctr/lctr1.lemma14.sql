-- id: lctr1.lemma14
-- source: lctr-some-results.txt, Lemma 14
-- kind: lemma
-- statement: Let r, m, s be positive integers with m > r. Then SG((r+1)^m, r^s) = 0 if r + m is even and
--   1 if r + m is odd.
-- covers: lctr; thick Γ-partitions (a^m, r^s) with a = r + 1 and m > r
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 2 AND largest = parts[num_parts] + 1
--   AND conjugate[largest] > parts[num_parts]
WITH g AS (
    SELECT n, parts, sg, largest AS a, conjugate[largest] AS m, parts[num_parts] AS r
    FROM lctr
    WHERE distinct_sizes = 2
)
SELECT n, parts, sg, (r + m) % 2 AS expected
FROM g
WHERE a = r + 1 AND m > r AND sg <> (r + m) % 2
