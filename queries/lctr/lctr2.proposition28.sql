-- id: lctr2.proposition28
-- source: lctr-sg-complexity.txt, Proposition 28
-- kind: erratum
-- statement: Let λ ⊢ n. The number of states of L(λ) and D(λ) is bounded above by n + 1 and n
--   respectively, and both upper bounds are attained by gamma-shaped partitions. The number of states of
--   both is bounded below by Ω(√n).
-- covers: lctr, downright; every partition (bounds), gamma shapes (attainment)
-- correction: docs/definitions.md §8.2: among gamma shapes Γ(r,c) = (c, 1^{r−1}) only rows and columns attain the upper
--   bounds; a proper gamma (r, c ≥ 2) has r+c−1 = n states in LCTR and r+c−2 = n−1 in Downright. The
--   Ω(√n) lower bound is checked in the concrete form given by the proof: with k the largest integer
--   such that k(k+1)/2 ≤ n, L(λ) has at least k + 1 states and D(λ) at least k (attained by S_k). The
--   printed form returns the gamma shapes that do not attain the bound.
-- needs: record
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
WITH recs AS (
    SELECT 'lctr' AS game, n, parts, states, durfee, num_parts AS r, largest AS c, n + 1 AS upper,
           floor((sqrt(8 * n + 1) - 1) / 2)::BIGINT + 1 AS lower
    FROM lctr
    UNION ALL
    SELECT 'downright', n, parts, states, durfee, num_parts, largest, n,
           floor((sqrt(8 * n + 1) - 1) / 2)::BIGINT
    FROM downright
)
SELECT game, n, parts, states, upper, lower,
       CASE WHEN states > upper THEN 'above upper bound'
            WHEN states < lower THEN 'below lower bound'
            ELSE 'gamma: attains the bound iff row or column fails' END AS failure
FROM recs
WHERE states > upper OR states < lower
   OR (durfee = 1 AND (states = upper) <> (least(r, c) = 1))
-- printed form:
WITH recs AS (
    SELECT 'lctr' AS game, n, parts, states, durfee, n + 1 AS upper FROM lctr
    UNION ALL
    SELECT 'downright', n, parts, states, durfee, n FROM downright
)
SELECT game, n, parts, states, upper
FROM recs
WHERE states > upper OR (durfee = 1 AND states <> upper)
