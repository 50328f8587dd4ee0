-- id: lctrd.d2_is_lctr
-- source: docs/definitions.md §2.6 (lctr-sg-complexity.txt §8: d-dimensional LCTR for d = 2)
-- kind: observation
-- statement: d-dimensional LCTR with d = 2 is LCTR: every record of lctr_d2 has the values, game-tree
--   measures and flags of lctr's record of the same partition, and both hold the same partitions
--   of n (checked for the n both games hold).
-- covers: lctr_d2, lctr; every partition
-- needs: same n
-- domain: SELECT coalesce(a.n, b.n) AS n
--   FROM (SELECT n, parts FROM lctr_d2 WHERE stored('lctr_d2', n) AND stored('lctr', n)) a
--   FULL JOIN (SELECT n, parts FROM lctr WHERE stored('lctr_d2', n) AND stored('lctr', n)) b
--     ON a.n = b.n AND a.parts = b.parts
-- Each side keeps the n both games hold before the join, not after it on coalesce(a.n, b.n) (the
-- same rows: a pair joins within one n): a store of LCTR alone then joins nothing.
SELECT coalesce(a.n, b.n) AS n, coalesce(a.parts, b.parts) AS parts,
       a.sg AS lctr_d2_sg, b.sg AS lctr_sg, a.sg_misere AS lctr_d2_sg_misere, b.sg_misere AS lctr_sg_misere
FROM (SELECT * FROM lctr_d2 WHERE stored('lctr_d2', n) AND stored('lctr', n)) a
FULL JOIN (SELECT * FROM lctr WHERE stored('lctr_d2', n) AND stored('lctr', n)) b
  ON a.n = b.n AND a.parts = b.parts
WHERE (a.n IS NULL OR b.n IS NULL
   OR (a.sg, a.sg_misere, a.nodes, a.leaves, a.states, a.height, a.domestic, a.tame, a.pet,
       a.miserable, a.forced, a.returnable)
      IS DISTINCT FROM
      (b.sg, b.sg_misere, b.nodes, b.leaves, b.states, b.height, b.domestic, b.tame, b.pet,
       b.miserable, b.forced, b.returnable))
