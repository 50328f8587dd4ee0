-- id: lctr2.lemma26
-- source: lctr-sg-complexity.txt, Lemma 26
-- kind: lemma
-- statement: For positive integers r, c the game tree of L(R(r,c)) has C(r+c, r) leaves.
-- covers: lctr; every rectangle R(r,c)
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 1
WITH e AS (
    SELECT n, ordinal, leaves, num_parts AS r, largest AS c,
           list_reduce(range(1, least(num_parts, largest) + 1),
                       lambda acc, k: acc * (greatest(num_parts, largest) + k) // k, 1::HUGEINT) AS expected
    FROM lctr
    WHERE distinct_sizes = 1
)
SELECT n, partition_at(n, ordinal) AS parts, r, c, leaves, expected
FROM e
WHERE leaves::HUGEINT IS DISTINCT FROM CASE WHEN expected <= 9223372036854775807 THEN expected END
