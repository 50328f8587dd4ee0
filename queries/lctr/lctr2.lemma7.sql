-- id: lctr2.lemma7
-- source: lctr-sg-complexity.txt, Lemma 7
-- kind: lemma
-- statement: Let λ be a nonempty partition. Then λ is a P-position in misère LCTR if and only if it is a
--   P-position in Downright (under normal play).
-- covers: lctr (sg_misere), downright (sg); every nonempty partition present in both games
-- needs: same n
-- domain: SELECT n FROM lctr_downright
SELECT n, partition_at(n, ordinal) AS parts, lctr_sg_misere AS lctr_sg_misere, downright_sg, aligned
FROM lctr_downright
WHERE aligned IS NOT TRUE OR (lctr_sg_misere = 0) <> (downright_sg = 0)
