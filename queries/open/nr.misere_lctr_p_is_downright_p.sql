-- id: nr.misere_lctr_p_is_downright_p
-- source: docs/definitions.md §2.5 (lctr-sg-complexity.txt §8, the non-repetitive variant)
-- kind: observation
-- statement: The misère P-positions of non-repetitive LCTR are the P-positions of non-repetitive
--   Downright, as for the plain games (§2.2): a partition λ has sg_misere = 0 in lctr_nr iff it has
--   sg = 0 in downright_nr. (A move off the diagram reaches (), a misère N-position, so it changes
--   no position's misère outcome; where it is the only move left, Downright has none: P both ways.)
-- covers: lctr_nr, downright_nr; every partition
-- needs: same n
-- domain: SELECT a.n FROM lctr_nr a JOIN downright_nr b ON a.n = b.n AND a.ordinal = b.ordinal
SELECT a.n, a.parts, a.sg_misere AS lctr_nr_sg_misere, b.sg AS downright_nr_sg
FROM lctr_nr a
JOIN downright_nr b ON a.n = b.n AND a.ordinal = b.ordinal
WHERE (a.sg_misere = 0) <> (b.sg = 0)
