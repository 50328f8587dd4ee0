-- id: chess.thm4_9_pairs
-- source: impartial-chess.txt, Theorem 4.9, proof
-- kind: theorem
-- statement: For every sub-partition λ of a generalized staircase, G±_D(λ) ∈ {(0,1), (1,0), (2,2)} (Downright).
--   Sub-partitions of generalized staircases: the distinct parts form an arithmetic progression whose
--   difference d is at least the smallest part, and every block of equal parts but the first has the
--   same size m, the first at most m.
-- covers: downright; sub-partitions of generalized staircases
-- needs: record
-- domain: SELECT n FROM downright WHERE is_gen_staircase_sub(parts, conjugate)
SELECT 'downright' AS game, n, parts, [sg, sg_misere] AS pair
FROM downright
WHERE is_gen_staircase_sub(parts, conjugate)
  AND [sg, sg_misere] NOT IN ([0, 1], [1, 0], [2, 2])
