-- id: chess.thm4_10
-- source: impartial-chess.txt, Theorem 4.10
-- kind: theorem
-- statement: (Rook, rectangles), (King, rectangles) and (Rook, generalized staircases) are forced and miserable
--   (the 'but not pet' part is chess.thm4_10_witnesses). Generalized staircases: all sub-partitions
--   G(k;r,c)[i,j] of generalized staircases (recognised as: the distinct parts form an arithmetic
--   progression whose difference d is at least the smallest part, and every block of equal parts but the
--   first has the same size m, the first at most m).
-- covers: rook, king on rectangles; rook on sub-partitions of generalized staircases
-- needs: record
-- domain: SELECT n FROM rook WHERE (is_gen_staircase_sub(parts, conjugate)) OR (distinct_sizes = 1)
--   UNION ALL SELECT n FROM king WHERE (distinct_sizes = 1)
WITH c AS (
    SELECT 'rook' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT forced THEN 'not forced' END, CASE WHEN NOT miserable OR NOT pair_tame(sg, sg_misere) THEN 'not miserable' END) AS lacks
    FROM rook
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'king' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT forced THEN 'not forced' END, CASE WHEN NOT miserable OR NOT pair_tame(sg, sg_misere) THEN 'not miserable' END) AS lacks
    FROM king
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'rook' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT forced THEN 'not forced' END, CASE WHEN NOT miserable OR NOT pair_tame(sg, sg_misere) THEN 'not miserable' END) AS lacks
    FROM rook
    WHERE is_gen_staircase_sub(parts, conjugate)
)
SELECT * FROM c WHERE lacks <> ''
