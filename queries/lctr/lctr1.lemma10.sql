-- id: lctr1.lemma10
-- source: lctr-some-results.txt, Lemma 10
-- kind: lemma
-- statement: Let λ = ((2n_1)^{2m_1}, …, (2n_k)^{2m_k}) be quadrated. If n_1 > 1 and (m_1 > 1 or k > 1),
--   then SG(L(λ)) = SG(T(λ)) = 1. (The remaining cases n_1 = 1, or m_1 = 1 and k = 1, are referred to
--   Lemma 6 and make no new claim.)
-- covers: lctr; quadrated partitions with largest part > 2 and more than two parts, joined to the records
--   of T(λ) and L(λ)
-- domain: SELECT n FROM lctr WHERE largest > 2 AND num_parts > 2
--   AND list_bool_and(list_transform(parts, lambda x: x % 2 = 0))
--   AND list_bool_and(list_transform(conjugate, lambda x: x % 2 = 0))
WITH q AS (
    SELECT n, parts,
           parts[2:] AS t,
           list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0) AS l
    FROM lctr
    WHERE largest > 2 AND num_parts > 2
      AND list_bool_and(list_transform(parts, lambda x: x % 2 = 0))
      AND list_bool_and(list_transform(conjugate, lambda x: x % 2 = 0))
)
SELECT q.n, q.parts, 'T(λ)' AS move, s.parts AS position, s.sg
FROM q JOIN lctr s ON record_key(s.n, s.ordinal) = part_key(q.t)
WHERE s.sg <> 1
UNION ALL
SELECT q.n, q.parts, 'L(λ)', s.parts, s.sg
FROM q JOIN lctr s ON record_key(s.n, s.ordinal) = part_key(q.l)
WHERE s.sg <> 1
