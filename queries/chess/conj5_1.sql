-- id: chess.conj5_1
-- source: impartial-chess.txt, Conjecture 5.1
-- kind: conjecture
-- statement: Let r be odd and k ≥ 1. Then SG_King(G(k;r,r)) is 0 if k mod (r+2) is odd, 1 if k mod (r+2) is even
--   and not 0, and 2 if k mod (r+2) = 0. (r = 1 is Lemma 3.13.)
-- covers: king; generalized staircases G(k;r,r) with r odd
-- needs: record
-- domain: SELECT n FROM king WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes *
--   parts[-1] AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1)
--   // conjugate[-1]))) AND conjugate[-1] = parts[-1] AND parts[-1] % 2 = 1
SELECT 'king' AS game, n, parts, distinct_sizes AS k, parts[-1] AS r, sg,
       CASE WHEN distinct_sizes % (parts[-1] + 2) = 0 THEN 2
            WHEN distinct_sizes % (parts[-1] + 2) % 2 = 1 THEN 0 ELSE 1 END AS conjectured
FROM king
WHERE num_parts = distinct_sizes * conjugate[-1] AND largest = distinct_sizes * parts[-1]
  AND list_bool_and(list_transform(parts, lambda x, p: x = parts[-1] * (distinct_sizes - (p - 1) // conjugate[-1])))
  AND conjugate[-1] = parts[-1] AND parts[-1] % 2 = 1
  AND sg <> CASE WHEN distinct_sizes % (parts[-1] + 2) = 0 THEN 2
            WHEN distinct_sizes % (parts[-1] + 2) % 2 = 1 THEN 0 ELSE 1 END
