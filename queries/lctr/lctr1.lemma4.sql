-- id: lctr1.lemma4
-- source: lctr-some-results.txt, Lemma 4
-- kind: lemma
-- statement: LCTR is conjugate-invariant: SG(λ') = SG(λ) for every partition λ.
-- covers: lctr; every partition (joined to the record of its conjugate)
-- domain: SELECT n FROM lctr
SELECT a.n, a.parts, a.sg, b.parts AS conjugate, b.sg AS conjugate_sg
FROM lctr a
JOIN lctr b ON b.n = a.n AND record_key(b.n, b.ordinal) = part_key(a.conjugate)
WHERE a.sg <> b.sg
