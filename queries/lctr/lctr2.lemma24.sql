-- id: lctr2.lemma24
-- source: lctr-sg-complexity.txt, Lemma 24
-- kind: lemma
-- statement: For positive integers r, c the game tree of D(R(r,c)) has C(r+c, r) − 1 nodes.
-- covers: downright; every rectangle R(r,c)
-- needs: record
-- domain: SELECT n FROM downright WHERE distinct_sizes = 1
WITH e AS (
    SELECT n, ordinal, nodes, num_parts AS r, largest AS c,
           list_reduce(range(1, least(num_parts, largest) + 1),
                       lambda acc, k: acc * (greatest(num_parts, largest) + k) // k, 1::HUGEINT) - 1 AS expected
    FROM downright
    WHERE distinct_sizes = 1
)
SELECT n, partition_at(n, ordinal) AS parts, r, c, nodes, expected
FROM e
WHERE nodes::HUGEINT IS DISTINCT FROM CASE WHEN expected <= 9223372036854775807 THEN expected END
