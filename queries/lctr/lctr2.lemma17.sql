-- id: lctr2.lemma17
-- source: lctr-sg-complexity.txt, Lemma 17
-- kind: lemma
-- statement: For positive integers c and r, SG(L(R(r,c))) = 0 if c > 1 and r > 1 and c + r is even;
--   2 if (c ≤ 2 or r ≤ 2) and c + r is odd; 1 otherwise.
-- covers: lctr; every rectangle R(r,c) = (c^r)
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = 1
WITH e AS (
    SELECT n, parts, sg, num_parts AS r, largest AS c,
           CASE WHEN largest > 1 AND num_parts > 1 AND (largest + num_parts) % 2 = 0 THEN 0
                WHEN (largest <= 2 OR num_parts <= 2) AND (largest + num_parts) % 2 = 1 THEN 2
                ELSE 1 END AS expected
    FROM lctr
    WHERE distinct_sizes = 1
)
SELECT n, parts, r, c, sg, expected FROM e WHERE sg <> expected
