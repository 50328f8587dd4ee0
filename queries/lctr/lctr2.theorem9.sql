-- id: lctr2.theorem9
-- source: lctr-sg-complexity.txt, Theorem 9 (with Equation 7)
-- kind: theorem
-- statement: Let G be an impartial misère game and p a non-terminal position of G. Then p is a
--   P-position of G iff p is a P-position of trunc(G) (G without its moves to terminal positions) under
--   normal play. Applied to the two games of the paper: trunc(L(λ)) = D(λ), so misère LCTR and Downright
--   have the same P-positions; and for λ ⊢ n ≥ 2, trunc(D(λ)) = D(λ⁻) (Equation 7, λ⁻ = λ with all its
--   corners removed), so λ is a P-position of misère Downright iff λ⁻ is a P-position of Downright.
-- covers: lctr (sg_misere) vs downright (sg), every nonempty partition; downright (sg_misere) vs
--   downright (sg) of λ⁻, every partition of n ≥ 2
-- domain: SELECT n FROM lctr UNION ALL SELECT n FROM downright WHERE n >= 2
WITH rc AS (
    SELECT n, parts, sg_misere,
           list_filter(list_transform(parts,
               lambda x, i: CASE WHEN i = len(parts) OR parts[i + 1] < x THEN x - 1 ELSE x END),
               lambda x: x > 0) AS minus
    FROM downright
    WHERE n >= 2
)
SELECT 'misère lctr vs downright' AS claim, l.n, l.parts, l.sg_misere AS misere_value,
       d.parts AS truncated, d.sg AS truncated_sg
FROM lctr l
JOIN downright d ON d.n = l.n AND record_key(d.n, d.ordinal) = part_key(l.parts)
WHERE (l.sg_misere = 0) <> (d.sg = 0)
UNION ALL
SELECT 'misère downright vs downright(λ⁻)', rc.n, rc.parts, rc.sg_misere, d.parts, d.sg
FROM rc
JOIN downright d ON record_key(d.n, d.ordinal) = part_key(rc.minus)
WHERE (rc.sg_misere = 0) <> (d.sg = 0)
