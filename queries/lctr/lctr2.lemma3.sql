-- id: lctr2.lemma3
-- source: lctr-sg-complexity.txt, Lemma 3
-- kind: lemma
-- statement: For a positive integer k, the staircase S_k = (k, k−1, …, 1) has SG(L(S_k)) = k mod 2 and
--   SG(D(S_k)) = (k − 1) mod 2.
-- covers: lctr, downright; staircases S_k, k ≥ 1
-- needs: record
-- domain: SELECT n FROM lctr WHERE distinct_sizes = num_parts AND largest = num_parts
--   UNION ALL SELECT n FROM downright WHERE distinct_sizes = num_parts AND largest = num_parts
SELECT 'lctr' AS game, n, parts, sg, num_parts % 2 AS expected
FROM lctr
WHERE distinct_sizes = num_parts AND largest = num_parts AND sg <> num_parts % 2
UNION ALL
SELECT 'downright', n, parts, sg, (num_parts - 1) % 2
FROM downright
WHERE distinct_sizes = num_parts AND largest = num_parts AND sg <> (num_parts - 1) % 2
