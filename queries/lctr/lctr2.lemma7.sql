-- id: lctr2.lemma7
-- source: lctr-sg-complexity.txt, Lemma 7
-- kind: lemma
-- statement: Let λ be a nonempty partition. Then λ is a P-position in misère LCTR if and only if it is a
--   P-position in Downright (under normal play).
-- covers: lctr (sg_misere), downright (sg); every nonempty partition present in both games
-- needs: same n
-- domain: SELECT l.n FROM lctr l JOIN downright d ON d.n = l.n AND d.ordinal = l.ordinal
SELECT l.n, l.parts, l.sg_misere AS lctr_sg_misere, d.sg AS downright_sg
FROM lctr l
JOIN downright d ON d.n = l.n AND d.ordinal = l.ordinal
WHERE (l.sg_misere = 0) <> (d.sg = 0)
