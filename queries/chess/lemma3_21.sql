-- id: chess.lemma3_21
-- source: impartial-chess.txt, Lemma 3.21
-- kind: lemma
-- statement: Let λ = (λ1, …, λr) have rank 0 and let k > 1 be odd. Then the "stair of λ-steps"
--   S_λ^k = ((k−1)λ1 + λ1, …, (k−1)λ1 + λr, (k−2)λ1 + λ1, …, (k−2)λ1 + λr, …, λ1, …, λr) is an
--   N-position of Queen. Every Queen record is tested for being S_λ^k: for each odd k > 1 dividing its
--   number of parts, λ is its last block of rows, which must have rank 0.
-- covers: queen; partitions S_λ^k with λ of rank 0 and k > 1 odd
-- needs: record
-- domain: SELECT n FROM (SELECT DISTINCT n, parts FROM (SELECT n, parts, unnest(range(3, len(parts) + 1, 2)) AS k
--   FROM queen WHERE rank = 0) WHERE len(parts) % k = 0 AND parts[len(parts) - len(parts) // k + 1] = len(parts) // k
--   AND list_bool_and(list_transform(parts, lambda x, p: x = (k - 1 - (p - 1) // (len(parts) // k)) * (len(parts) // k)
--   + parts[len(parts) - len(parts) // k + 1 + (p - 1) % (len(parts) // k)])))
WITH cand AS (
    SELECT n, parts, sg, unnest(range(3, len(parts) + 1, 2)) AS k FROM queen WHERE rank = 0
),
stairs AS (
    SELECT n, parts, sg, k, len(parts) // k AS r
    FROM cand
    WHERE len(parts) % k = 0
),
hits AS (
    SELECT * FROM stairs
    WHERE parts[len(parts) - r + 1] = r
      AND list_bool_and(list_transform(parts, lambda x, p: x = (k - 1 - (p - 1) // r) * r
                                                           + parts[len(parts) - r + 1 + (p - 1) % r]))
)
SELECT 'queen' AS game, n, parts, k, parts[len(parts) - r + 1:] AS lambda_step, sg
FROM hits
WHERE sg = 0
