-- id: lctr2.lemma6
-- source: lctr-sg-complexity.txt, Lemma 6
-- kind: lemma
-- statement: Let λ be a partition. Then in LCTR or Downright (1) λ'[i,j] = λ[j,i]' and (2)
--   SG(L(λ')) = SG(L(λ)) and SG(D(λ')) = SG(D(λ)). The games on λ and λ' have isomorphic game trees,
--   so every column of the record (sg, sg_misere, nodes, leaves, states, height and the six flags) is
--   conjugation-invariant. Item (1) is checked for the moves (i,j) = (1,0), (0,1) on every record
--   (λ'[1,0] = (λ[0,1])' and λ'[0,1] = (λ[1,0])', comparing with the stored conjugate of the follower's
--   record); all other cells follow by composing moves (Equation 1).
-- covers: lctr, downright; every partition, joined to the record of its conjugate and to the records
--   of its followers
-- needs: followers
-- domain: SELECT n FROM lctr WHERE verify_subject(n) UNION ALL SELECT n FROM downright WHERE verify_subject(n)
WITH pairs AS (
    SELECT 'lctr' AS game, a.n, a.parts, b.parts IS NULL AS missing,
           a.sg IS DISTINCT FROM b.sg AS d_sg,
           a.sg_misere IS DISTINCT FROM b.sg_misere AS d_sg_misere,
           a.nodes IS DISTINCT FROM b.nodes AS d_nodes,
           a.leaves IS DISTINCT FROM b.leaves AS d_leaves,
           a.states IS DISTINCT FROM b.states AS d_states,
           a.height IS DISTINCT FROM b.height AS d_height,
           a.domestic IS DISTINCT FROM b.domestic OR a.tame IS DISTINCT FROM b.tame
               OR a.pet IS DISTINCT FROM b.pet OR a.miserable IS DISTINCT FROM b.miserable
               OR a.forced IS DISTINCT FROM b.forced OR a.returnable IS DISTINCT FROM b.returnable AS d_flags
    FROM lctr a LEFT JOIN lctr b ON record_key(b.n, b.ordinal) = part_key(a.conjugate)
    WHERE verify_subject(a.n)
    UNION ALL
    SELECT 'downright', a.n, a.parts, b.parts IS NULL,
           a.sg IS DISTINCT FROM b.sg, a.sg_misere IS DISTINCT FROM b.sg_misere,
           a.nodes IS DISTINCT FROM b.nodes, a.leaves IS DISTINCT FROM b.leaves,
           a.states IS DISTINCT FROM b.states, a.height IS DISTINCT FROM b.height,
           a.domestic IS DISTINCT FROM b.domestic OR a.tame IS DISTINCT FROM b.tame
               OR a.pet IS DISTINCT FROM b.pet OR a.miserable IS DISTINCT FROM b.miserable
               OR a.forced IS DISTINCT FROM b.forced OR a.returnable IS DISTINCT FROM b.returnable
    FROM downright a LEFT JOIN downright b ON record_key(b.n, b.ordinal) = part_key(a.conjugate)
    WHERE verify_subject(a.n)
),
-- item1 is read twice: NOT MATERIALIZED keeps DuckDB from storing every record with its four lists
-- first (n <= 70: 14.1 -> 6.9 GB, 48 -> 45 s).
item1 AS NOT MATERIALIZED (
    SELECT a.n, a.parts, a.conjugate,
           list_filter(list_transform(a.parts, lambda x: x - 1), lambda x: x > 0) AS l,
           a.parts[2:] AS t,
           a.conjugate[2:] AS conj_t,
           list_filter(list_transform(a.conjugate, lambda x: x - 1), lambda x: x > 0) AS conj_l
    FROM lctr a
)
SELECT game, n, parts,
       CASE WHEN missing THEN 'conjugate record missing'
            ELSE concat_ws(',', CASE WHEN d_sg THEN 'sg' END, CASE WHEN d_sg_misere THEN 'sg_misere' END,
                           CASE WHEN d_nodes THEN 'nodes' END, CASE WHEN d_leaves THEN 'leaves' END,
                           CASE WHEN d_states THEN 'states' END, CASE WHEN d_height THEN 'height' END,
                           CASE WHEN d_flags THEN 'flags' END) END AS differs
FROM pairs
WHERE missing OR d_sg OR d_sg_misere OR d_nodes OR d_leaves OR d_states OR d_height OR d_flags
UNION ALL
SELECT 'lctr', i.n, i.parts, 'item 1: λ''[1,0] <> (λ[0,1])'''
FROM item1 i JOIN lctr f ON f.parts = i.l
WHERE f.conjugate::INTEGER[] <> i.conj_t::INTEGER[]
UNION ALL
SELECT 'lctr', i.n, i.parts, 'item 1: λ''[0,1] <> (λ[1,0])'''
FROM item1 i JOIN lctr f ON f.parts = i.t
WHERE f.conjugate::INTEGER[] <> i.conj_l::INTEGER[]
