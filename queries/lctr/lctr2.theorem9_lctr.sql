-- id: lctr2.theorem9_lctr
-- source: lctr-sg-complexity.txt, Theorem 9
-- kind: theorem
-- statement: Let G be an impartial misère game and p a non-terminal position of G. Then p is a
--   P-position of G iff p is a P-position of trunc(G) (G without its moves to terminal positions) under
--   normal play. Applied to the two games of the paper: trunc(L(λ)) = D(λ), so misère LCTR and Downright
--   have the same P-positions; and for λ ⊢ n ≥ 2, trunc(D(λ)) = D(λ⁻) (Equation 7, λ⁻ = λ with all its
--   corners removed), so λ is a P-position of misère Downright iff λ⁻ is a P-position of Downright.
-- covers: lctr (sg_misere) vs downright (sg) of the same partition, every nonempty partition; the
--   second claim (Equation 7) is lctr2.theorem9
-- needs: same n
-- domain: SELECT n FROM lctr_downright
SELECT n, partition_at(n, ordinal) AS parts, lctr_sg_misere AS misere_value, downright_sg, aligned
FROM lctr_downright
WHERE aligned IS NOT TRUE OR (lctr_sg_misere = 0) <> (downright_sg = 0)
