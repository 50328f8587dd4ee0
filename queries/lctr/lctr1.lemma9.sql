-- id: lctr1.lemma9
-- source: lctr-some-results.txt, Lemma 9
-- kind: lemma
-- statement: A quadrated partition λ (all parts even, each part occurring an even number of times) is a
--   P-position. Further, if L(T(λ)) = T(L(λ)) = λ[1,1] is not of the form (n) or (1^n), it is a
--   P-position too.
-- covers: lctr; quadrated partitions, and their sub-partitions λ[1,1] that are neither a row nor a column
-- domain: SELECT n FROM lctr WHERE list_bool_and(list_transform(parts, lambda x: x % 2 = 0))
--   AND list_bool_and(list_transform(conjugate, lambda x: x % 2 = 0))
WITH q AS (
    SELECT n, parts, sg,
           list_filter(list_transform(parts[2:], lambda x: x - 1), lambda x: x > 0) AS lt
    FROM lctr
    WHERE list_bool_and(list_transform(parts, lambda x: x % 2 = 0))
      AND list_bool_and(list_transform(conjugate, lambda x: x % 2 = 0))
)
SELECT q.n, q.parts, 'λ' AS position, q.parts AS position_parts, q.sg
FROM q
WHERE q.sg <> 0
UNION ALL
SELECT q.n, q.parts, 'L(T(λ))', s.parts, s.sg
FROM q
JOIN lctr s ON record_key(s.n, s.ordinal) = part_key(q.lt)
WHERE s.num_parts > 1 AND s.largest > 1 AND s.sg <> 0
