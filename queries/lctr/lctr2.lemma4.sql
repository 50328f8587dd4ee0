-- id: lctr2.lemma4
-- source: lctr-sg-complexity.txt, Lemma 4
-- kind: lemma
-- statement: For positive integers r, c and the gamma Γ(r,c) = (c, 1^{r−1}):
--   SG(L(Γ(r,c))) = 0 if c > 1 and r > 1; 1 if r = 1 and c is odd, or c = 1 and r is odd; 2 otherwise.
--   SG(D(Γ(r,c))) = 0 if c and r are both odd; 2 if they have different parity and c > 1 and r > 1;
--   1 otherwise.
-- covers: lctr, downright; every gamma (Durfee length 1: rows, columns and proper hooks)
-- needs: record
-- domain: SELECT n FROM lctr WHERE durfee = 1 UNION ALL SELECT n FROM downright WHERE durfee = 1
WITH g AS (
    SELECT 'lctr' AS game, n, parts, sg, num_parts AS r, largest AS c FROM lctr WHERE durfee = 1
    UNION ALL
    SELECT 'downright', n, parts, sg, num_parts, largest FROM downright WHERE durfee = 1
),
e AS (
    SELECT *,
           CASE WHEN game = 'lctr' THEN
                    CASE WHEN c > 1 AND r > 1 THEN 0
                         WHEN (r = 1 AND c % 2 = 1) OR (c = 1 AND r % 2 = 1) THEN 1
                         ELSE 2 END
                ELSE
                    CASE WHEN c % 2 = 1 AND r % 2 = 1 THEN 0
                         WHEN c % 2 <> r % 2 AND c > 1 AND r > 1 THEN 2
                         ELSE 1 END
           END AS expected
    FROM g
)
SELECT game, n, parts, r, c, sg, expected
FROM e
WHERE sg <> expected
