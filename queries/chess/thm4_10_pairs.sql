-- id: chess.thm4_10_pairs
-- source: impartial-chess.txt, Theorem 4.10, proof (equations (6), (7))
-- kind: erratum
-- statement: Rook on rectangles and generalized staircases: the only swap positions are R(r,c)[r−1,c−1] = (1) and
--   R(r,c)[r−2,c−2] = (2,2), which are (0,1)-positions, and R(r,c)[r−1,c−2] = (2) and R(r,c)[r−2,c−1] =
--   (1,1), which are (1,0)-positions; every other rectangle, and every sub-partition of a generalized
--   staircase that is not a rectangle, is symmetric (a (k,k)-position). Sub-partitions of generalized
--   staircases: the distinct parts form an arithmetic progression whose difference d is at least the
--   smallest part, and every block of equal parts but the first has the same size m, the first at most
--   m.
-- correction: Not in docs/definitions.md §8 (found by this catalogue). The staircase S(2) = G(2;1,1) = (2,1) is not a rectangle
--   but is a (1,0)-position (both its moves reach (1)), so the extension of the proof to generalized
--   staircases misses one swap position; the theorem itself (forced and miserable) is unaffected.
--   Corrected: (2,1) is a further (1,0)-position and every other sub-partition is as stated; the printed
--   form checks the statement as written.
-- covers: rook; sub-partitions of generalized staircases (rectangles included)
-- needs: record
-- domain: SELECT n FROM rook WHERE is_gen_staircase_sub(parts, conjugate)
SELECT 'rook' AS game, n, parts, [sg, sg_misere] AS pair,
       CASE WHEN parts IN ([1]::SMALLINT[], [2, 2]::SMALLINT[]) THEN '(0,1)'
            WHEN parts IN ([2]::SMALLINT[], [1, 1]::SMALLINT[], [2, 1]::SMALLINT[]) THEN '(1,0)'
            ELSE 'symmetric' END AS expected
FROM rook
WHERE is_gen_staircase_sub(parts, conjugate)
  AND NOT CASE WHEN parts IN ([1]::SMALLINT[], [2, 2]::SMALLINT[]) THEN [sg, sg_misere] = [0, 1]
           WHEN parts IN ([2]::SMALLINT[], [1, 1]::SMALLINT[], [2, 1]::SMALLINT[])
               THEN [sg, sg_misere] = [1, 0]
           ELSE sg = sg_misere END
-- printed form:
SELECT 'rook' AS game, n, parts, [sg, sg_misere] AS pair,
       CASE WHEN parts IN ([1]::SMALLINT[], [2, 2]::SMALLINT[]) THEN '(0,1)'
            WHEN parts IN ([2]::SMALLINT[], [1, 1]::SMALLINT[], [2, 1]::SMALLINT[]) THEN '(1,0)'
            ELSE 'symmetric' END AS expected
FROM rook
WHERE is_gen_staircase_sub(parts, conjugate)
  AND NOT CASE WHEN parts IN ([1]::SMALLINT[], [2, 2]::SMALLINT[]) THEN [sg, sg_misere] = [0, 1]
           WHEN parts IN ([2]::SMALLINT[], [1, 1]::SMALLINT[]) THEN [sg, sg_misere] = [1, 0]
           ELSE sg = sg_misere END
