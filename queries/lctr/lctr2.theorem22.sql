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
-- One scan of LCTR's records: the α's as columns al1 … al6 (Lemma 12-14's value of each triple,
-- macro theorem22_alpha; d = 2: α02, α20, α12, α21; d >= 3: α03, α13, α23, α30, α31, α32), then
-- the equations' x's layer by layer (each layer a projection of the one below: a value is
-- computed once, never materialized), each x the mex of its two followers (mex_of_two).
WITH la AS NOT MATERIALIZED (
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
-- d = 2, Equation 9: x11 = mex(α21, α12), x01 = mex(α02, x11), x10 = mex(α20, x11);
-- d >= 3, Equation 12 on λ̄: x22 = mex(α23, α32), then x21, x12, x20, x11, x02, x10, x01
x1 AS NOT MATERIALIZED (
    SELECT *, CASE WHEN d = 2 THEN mex_of_two(al4, al3) WHEN d >= 3 THEN mex_of_two(al3, al6) END AS x22
    FROM la
),
x2 AS NOT MATERIALIZED (
    SELECT *, mex_of_two(x22, al5) AS x21, mex_of_two(al2, x22) AS x12 FROM x1
),
x3 AS NOT MATERIALIZED (
    SELECT *, mex_of_two(x21, al4) AS x20, mex_of_two(x12, x21) AS x11, mex_of_two(al1, x12) AS x02 FROM x2
),
x4 AS NOT MATERIALIZED (
    SELECT *,
           CASE WHEN d = 2 THEN mex_of_two(al1, x22) ELSE mex_of_two(x02, x11) END AS x01,
           CASE WHEN d = 2 THEN mex_of_two(al2, x22) ELSE mex_of_two(x11, x20) END AS x10
    FROM x3
),
lc AS NOT MATERIALIZED (
    SELECT n, parts, d, sg,
           CASE WHEN d = 1 THEN CASE WHEN c > 1 AND r > 1 THEN 0
                                     WHEN (r = 1 AND c % 2 = 1) OR (c = 1 AND r % 2 = 1) THEN 1
                                     ELSE 2 END
                ELSE mex_of_two(x01, x10) END AS expected
    FROM x4
),
dr AS NOT MATERIALIZED (
    SELECT n, parts, sg, durfee AS d,
           conjugate[durfee] - durfee + 1 AS gr, parts[durfee] - durfee + 1 AS gc
    FROM downright
)
SELECT 'lctr' AS game, n, parts, d AS durfee, sg, expected FROM lc WHERE sg IS DISTINCT FROM expected
UNION ALL
SELECT 'downright', n, parts, d, sg,
       CASE WHEN gc % 2 = 1 AND gr % 2 = 1 THEN 0
            WHEN gc % 2 <> gr % 2 AND gc > 1 AND gr > 1 THEN 2
            ELSE 1 END
FROM dr
WHERE sg <> CASE WHEN gc % 2 = 1 AND gr % 2 = 1 THEN 0
                 WHEN gc % 2 <> gr % 2 AND gc > 1 AND gr > 1 THEN 2
                 ELSE 1 END
