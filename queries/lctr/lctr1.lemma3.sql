-- id: lctr1.lemma3
-- source: lctr-some-results.txt, Lemma 3
-- kind: lemma
-- statement: For every nonempty partition λ, L(λ) = (T(λ'))' and T(λ) = (L(λ'))', where T drops the
--   top row, L drops the left column and ' is conjugation. Checked on every record with the stored
--   conjugate column as λ' (the outer conjugation is computed from the definition λ'_j = #{m : λ_m ≥ j}).
-- covers: lctr; every partition
-- needs: record
-- domain: SELECT n FROM lctr
WITH m AS (
    SELECT n, parts, conjugate,
           parts[2:] AS t,
           list_filter(list_transform(parts, lambda x: x - 1), lambda x: x > 0) AS l,
           conjugate[2:] AS tc,
           list_filter(list_transform(conjugate, lambda x: x - 1), lambda x: x > 0) AS lc
    FROM lctr
),
c AS (
    SELECT n, parts, conjugate, t, l,
           list_transform(range(1, coalesce(list_max(tc), 0) + 1),
                          lambda k: len(list_filter(tc, lambda x: x >= k))) AS conj_tc,
           list_transform(range(1, coalesce(list_max(lc), 0) + 1),
                          lambda k: len(list_filter(lc, lambda x: x >= k))) AS conj_lc
    FROM m
)
SELECT n, parts, conjugate, l AS l_lambda, conj_tc AS conj_t_conj, t AS t_lambda, conj_lc AS conj_l_conj
FROM c
WHERE l::INTEGER[] <> conj_tc::INTEGER[] OR t::INTEGER[] <> conj_lc::INTEGER[]
