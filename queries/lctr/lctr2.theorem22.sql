-- id: lctr2.theorem22
-- source: lctr-sg-complexity.txt, Theorem 22 (and its proof; Equations 8–12, Lemmas 4, 12–14,
--   Theorem 11, Corollary 16)
-- kind: theorem
-- statement: The SG values of D(λ) and L(λ) can be computed in O(log r) time units by the procedure in the
--   proof. Downright: SG(D(λ)) is Lemma 4's value of the gamma λ[d−1,d−1] = Γ(λ'_d − d + 1, λ_d − d + 1),
--   d = d(λ). LCTR: d = 1 → Lemma 4; d = 2 → Equation 9 with α02 = SG(L(λ1−2, λ2−2)),
--   α20 = SG(L(r−2, j−2)), α12 = SG(L(λ2−2)), α21 = SG(L(j−2)) (j = λ'_2); d ≥ 3 → Equation 12 on
--   λ̄ = λ[d−3, d−3] with α03 = SG(L(λ̄1−3, λ̄2−3, λ̄3−3)), α13 = SG(L(λ̄2−3, λ̄3−3)), α23 = SG(L(λ̄3−3)),
--   α30 = SG(L(r̄−3, j−3, i−3)), α31 = SG(L(j−3, i−3)), α32 = SG(L(i−3)) (r̄, j, i the first three
--   column lengths of λ̄), the α's given by Lemmas 12, 13 and 14. The procedure's value must equal the
--   record's sg for every partition.
-- covers: lctr, downright; every partition (Durfee length 1, 2 and ≥ 3 for LCTR)
-- needs: record
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright
WITH la AS MATERIALIZED (
    -- the α's of the proof as columns al1 … al6 (Lemma 12-14's value of each triple, macro
    -- theorem22_alpha): d = 2: α02, α20, α12, α21; d >= 3: α03, α13, α23, α30, α31, α32
    SELECT n, parts, sg, d, r, c,
           CASE WHEN d = 2 THEN theorem22_alpha(p1 - 2, p2 - 2, 0)
                WHEN d >= 3 THEN theorem22_alpha(b1 - 3, b2 - 3, b3 - 3) END AS al1,
           CASE WHEN d = 2 THEN theorem22_alpha(r - 2, q2 - 2, 0)
                WHEN d >= 3 THEN theorem22_alpha(b2 - 3, b3 - 3, 0) END AS al2,
           CASE WHEN d = 2 THEN theorem22_alpha(p2 - 2, 0, 0)
                WHEN d >= 3 THEN theorem22_alpha(b3 - 3, 0, 0) END AS al3,
           CASE WHEN d = 2 THEN theorem22_alpha(q2 - 2, 0, 0)
                WHEN d >= 3 THEN theorem22_alpha(rb - 3, jj - 3, ii - 3) END AS al4,
           CASE WHEN d >= 3 THEN theorem22_alpha(jj - 3, ii - 3, 0) END AS al5,
           CASE WHEN d >= 3 THEN theorem22_alpha(ii - 3, 0, 0) END AS al6
    FROM (
        SELECT n, parts, sg, durfee AS d, num_parts AS r, largest AS c,
               parts[1] AS p1, parts[2] AS p2, conjugate[2] AS q2,
               parts[durfee - 2] - durfee + 3 AS b1, parts[durfee - 1] - durfee + 3 AS b2,
               parts[durfee] - durfee + 3 AS b3, conjugate[durfee - 2] - durfee + 3 AS rb,
               conjugate[durfee - 1] - durfee + 3 AS jj, conjugate[durfee] - durfee + 3 AS ii
        FROM lctr
    )
),
l1 AS (
    SELECT n, parts, d, sg,
           CASE WHEN c > 1 AND r > 1 THEN 0
                WHEN (r = 1 AND c % 2 = 1) OR (c = 1 AND r % 2 = 1) THEN 1
                ELSE 2 END AS expected
    FROM la
    WHERE d = 1
),
l2a AS MATERIALIZED (
    SELECT n, parts, d, sg, al1 AS a02, al2 AS a20,
           CASE WHEN al4 <> 0 AND al3 <> 0 THEN 0 WHEN al4 <> 1 AND al3 <> 1 THEN 1 ELSE 2 END AS x11
    FROM la
    WHERE d = 2
),
l2b AS MATERIALIZED (
    SELECT n, parts, d, sg,
           CASE WHEN a02 <> 0 AND x11 <> 0 THEN 0 WHEN a02 <> 1 AND x11 <> 1 THEN 1 ELSE 2 END AS x01,
           CASE WHEN a20 <> 0 AND x11 <> 0 THEN 0 WHEN a20 <> 1 AND x11 <> 1 THEN 1 ELSE 2 END AS x10
    FROM l2a
),
l2 AS (
    SELECT n, parts, d, sg,
           CASE WHEN x01 <> 0 AND x10 <> 0 THEN 0 WHEN x01 <> 1 AND x10 <> 1 THEN 1 ELSE 2 END AS expected
    FROM l2b
),
l3a AS MATERIALIZED (
    SELECT n, parts, d, sg, al1 AS a03, al2 AS a13, al4 AS a30, al5 AS a31,
           CASE WHEN al3 <> 0 AND al6 <> 0 THEN 0 WHEN al3 <> 1 AND al6 <> 1 THEN 1 ELSE 2 END AS x22
    FROM la
    WHERE d >= 3
),
l3b AS MATERIALIZED (
    SELECT n, parts, d, sg, a03, a30,
           CASE WHEN x22 <> 0 AND a31 <> 0 THEN 0 WHEN x22 <> 1 AND a31 <> 1 THEN 1 ELSE 2 END AS x21,
           CASE WHEN a13 <> 0 AND x22 <> 0 THEN 0 WHEN a13 <> 1 AND x22 <> 1 THEN 1 ELSE 2 END AS x12
    FROM l3a
),
l3c AS MATERIALIZED (
    SELECT n, parts, d, sg,
           CASE WHEN x21 <> 0 AND a30 <> 0 THEN 0 WHEN x21 <> 1 AND a30 <> 1 THEN 1 ELSE 2 END AS x20,
           CASE WHEN x12 <> 0 AND x21 <> 0 THEN 0 WHEN x12 <> 1 AND x21 <> 1 THEN 1 ELSE 2 END AS x11,
           CASE WHEN a03 <> 0 AND x12 <> 0 THEN 0 WHEN a03 <> 1 AND x12 <> 1 THEN 1 ELSE 2 END AS x02
    FROM l3b
),
l3d AS MATERIALIZED (
    SELECT n, parts, d, sg,
           CASE WHEN x11 <> 0 AND x20 <> 0 THEN 0 WHEN x11 <> 1 AND x20 <> 1 THEN 1 ELSE 2 END AS x10,
           CASE WHEN x02 <> 0 AND x11 <> 0 THEN 0 WHEN x02 <> 1 AND x11 <> 1 THEN 1 ELSE 2 END AS x01
    FROM l3c
),
l3 AS (
    SELECT n, parts, d, sg,
           CASE WHEN x01 <> 0 AND x10 <> 0 THEN 0 WHEN x01 <> 1 AND x10 <> 1 THEN 1 ELSE 2 END AS expected
    FROM l3d
),
dr AS (
    SELECT n, parts, sg, durfee AS d,
           conjugate[durfee] - durfee + 1 AS gr, parts[durfee] - durfee + 1 AS gc
    FROM downright
)
SELECT 'lctr' AS game, n, parts, d AS durfee, sg, expected FROM l1 WHERE sg <> expected
UNION ALL
SELECT 'lctr', n, parts, d, sg, expected FROM l2 WHERE sg <> expected
UNION ALL
SELECT 'lctr', n, parts, d, sg, expected FROM l3 WHERE sg <> expected
UNION ALL
SELECT 'downright', n, parts, d, sg,
       CASE WHEN gc % 2 = 1 AND gr % 2 = 1 THEN 0
            WHEN gc % 2 <> gr % 2 AND gc > 1 AND gr > 1 THEN 2
            ELSE 1 END
FROM dr
WHERE sg <> CASE WHEN gc % 2 = 1 AND gr % 2 = 1 THEN 0
                 WHEN gc % 2 <> gr % 2 AND gc > 1 AND gr > 1 THEN 2
                 ELSE 1 END
