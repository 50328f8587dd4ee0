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
    SELECT n, parts, sg, durfee AS d, num_parts AS r, largest AS c,
           greatest(durfee - 3, 0) AS e,
           parts[e + 1] - e AS b1, parts[e + 2] - e AS b2, parts[e + 3] - e AS b3,
           conjugate[e + 1] - e AS rb, conjugate[e + 2] - e AS jj, conjugate[e + 3] - e AS ii,
           list_transform(
               CASE WHEN durfee = 2 THEN [[parts[1] - 2, parts[2] - 2, 0], [r - 2, conjugate[2] - 2, 0],
                                          [parts[2] - 2, 0, 0], [conjugate[2] - 2, 0, 0]]
                    WHEN durfee >= 3 THEN [[b1 - 3, b2 - 3, b3 - 3], [b2 - 3, b3 - 3, 0], [b3 - 3, 0, 0],
                                           [rb - 3, jj - 3, ii - 3], [jj - 3, ii - 3, 0], [ii - 3, 0, 0]]
               END,
               lambda t:
               CASE WHEN t[1] = 0 THEN 0
                    WHEN t[2] = 0 THEN CASE WHEN t[1] % 2 = 1 THEN 1 ELSE 2 END
                    WHEN t[3] = 0 THEN
                        CASE WHEN t[1] = t[2] THEN CASE WHEN t[1] % 2 = 0 THEN 0 ELSE 2 END
                             ELSE CASE WHEN t[2] % 2 = 1 THEN 0 ELSE 1 END END
                    WHEN t[1] = t[2] AND t[2] = t[3] THEN
                        CASE WHEN t[3] = 2 THEN 2 WHEN t[3] = 1 OR t[3] % 2 = 0 THEN 1 ELSE 0 END
                    WHEN t[1] > t[2] AND t[2] = t[3] THEN CASE WHEN t[3] % 2 = 1 THEN 0 ELSE 1 END
                    WHEN t[1] = t[2] THEN CASE WHEN t[3] % 2 = 0 THEN 0 ELSE 1 END
                    WHEN t[3] = 1 THEN CASE WHEN t[2] % 2 = 0 THEN 1 ELSE 2 END
                    ELSE CASE WHEN t[3] % 2 = 0 THEN 0 ELSE 1 END
               END) AS al
    FROM lctr
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
    SELECT n, parts, d, sg, al[1] AS a02, al[2] AS a20,
           CASE WHEN al[4] <> 0 AND al[3] <> 0 THEN 0 WHEN al[4] <> 1 AND al[3] <> 1 THEN 1 ELSE 2 END AS x11
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
    SELECT n, parts, d, sg, al[1] AS a03, al[2] AS a13, al[4] AS a30, al[5] AS a31,
           CASE WHEN al[3] <> 0 AND al[6] <> 0 THEN 0 WHEN al[3] <> 1 AND al[6] <> 1 THEN 1 ELSE 2 END AS x22
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
