-- id: lctr2.table1
-- source: lctr-sg-complexity.txt, Table 1
-- kind: observation
-- statement: Number of states, nodes and leaves of the game trees: L(Γ(r,c)) with min(r,c) = 1:
--   r+c, 2r+2c−1, r+c; D(Γ(r,c)) with min(r,c) = 1: r+c−1, r+c−1, 1; L(Γ(r,c)) with min(r,c) > 1:
--   r+c−1, 2r+2c−1, r+c; D(Γ(r,c)) with min(r,c) > 1: r+c−2, r+c−1, 2; L(S_r): r+1, 2^{r+1}−1, 2^r;
--   D(S_r): r, 2^r−1, 2^{r−1}; L(R(r,c)): rc+1, 2·C(r+c,r)−1, C(r+c,r); D(R(r,c)): rc, C(r+c,r)−1,
--   C(r+c−2,r−1). (States count λ itself, as in this paper; Γ(r,c) = (c, 1^{r−1}).)
-- covers: lctr, downright; gammas (Durfee length 1), staircases, rectangles — every member present;
--   a partition in several families is checked against each row
-- needs: record
-- domain: SELECT n FROM lctr WHERE durfee = 1 OR distinct_sizes = 1
--   OR (distinct_sizes = num_parts AND largest = num_parts)
--   UNION ALL SELECT n FROM downright WHERE durfee = 1 OR distinct_sizes = 1
--   OR (distinct_sizes = num_parts AND largest = num_parts)
-- the records of the four families only, so that the binomials are computed for those alone;
-- the parts of a counterexample from its ordinal (partition_at), so that no list is read
WITH recs AS (
    SELECT 'lctr' AS game, n, ordinal, states, nodes, leaves, num_parts AS r, largest AS c, durfee,
           distinct_sizes FROM lctr
    WHERE durfee = 1 OR distinct_sizes = 1 OR (distinct_sizes = num_parts AND largest = num_parts)
    UNION ALL
    SELECT 'downright', n, ordinal, states, nodes, leaves, num_parts, largest, durfee, distinct_sizes
    FROM downright
    WHERE durfee = 1 OR distinct_sizes = 1 OR (distinct_sizes = num_parts AND largest = num_parts)
),
b AS (
    SELECT *,
           list_reduce(range(1, least(r, c) + 1),
                       lambda acc, k: acc * (greatest(r, c) + k) // k, 1::HUGEINT) AS binom,
           list_reduce(range(1, least(r, c)),
                       lambda acc, k: acc * (greatest(r, c) - 1 + k) // k, 1::HUGEINT) AS binom2
    FROM recs
),
fam AS (
    SELECT game, n, ordinal, states, nodes, leaves, 'gamma, min(r,c) = 1' AS family,
           CASE WHEN game = 'lctr' THEN r + c ELSE r + c - 1 END::HUGEINT AS e_states,
           CASE WHEN game = 'lctr' THEN 2 * r + 2 * c - 1 ELSE r + c - 1 END::HUGEINT AS e_nodes,
           CASE WHEN game = 'lctr' THEN r + c ELSE 1 END::HUGEINT AS e_leaves
    FROM b WHERE durfee = 1 AND least(r, c) = 1
    UNION ALL
    SELECT game, n, ordinal, states, nodes, leaves, 'gamma, min(r,c) > 1',
           CASE WHEN game = 'lctr' THEN r + c - 1 ELSE r + c - 2 END::HUGEINT,
           CASE WHEN game = 'lctr' THEN 2 * r + 2 * c - 1 ELSE r + c - 1 END::HUGEINT,
           CASE WHEN game = 'lctr' THEN r + c ELSE 2 END::HUGEINT
    FROM b WHERE durfee = 1 AND least(r, c) > 1
    UNION ALL
    SELECT game, n, ordinal, states, nodes, leaves, 'staircase',
           CASE WHEN game = 'lctr' THEN r + 1 ELSE r END::HUGEINT,
           CASE WHEN game = 'lctr' THEN pow(2, r + 1)::HUGEINT - 1 ELSE pow(2, r)::HUGEINT - 1 END,
           CASE WHEN game = 'lctr' THEN pow(2, r)::HUGEINT ELSE pow(2, r - 1)::HUGEINT END
    FROM b WHERE distinct_sizes = r AND c = r
    UNION ALL
    SELECT game, n, ordinal, states, nodes, leaves, 'rectangle',
           CASE WHEN game = 'lctr' THEN r * c + 1 ELSE r * c END::HUGEINT,
           CASE WHEN game = 'lctr' THEN 2 * binom - 1 ELSE binom - 1 END,
           CASE WHEN game = 'lctr' THEN binom ELSE binom2 END
    FROM b WHERE distinct_sizes = 1
)
SELECT game, family, n, partition_at(n, ordinal) AS parts, states, e_states, nodes, e_nodes, leaves, e_leaves
FROM fam
WHERE states::HUGEINT IS DISTINCT FROM e_states
   OR nodes::HUGEINT IS DISTINCT FROM CASE WHEN e_nodes <= 9223372036854775807 THEN e_nodes END
   OR leaves::HUGEINT IS DISTINCT FROM CASE WHEN e_leaves <= 9223372036854775807 THEN e_leaves END
