-- id: chess.table1_rook
-- source: impartial-chess.txt, Table 1 (and Figure 7)
-- kind: theorem
-- statement: Table 1, row rook: Y+: N∩N', G: F∩M, R: F∩M, S: P∩F (columns: all partitions Y+, generalized
--   staircases G, rectangles R, staircases S; P pet, M miserable not pet, D domestic not tame, N not
--   domestic; F forced, R returnable not forced, N' not returnable). Checked here: every record of each
--   column's family has the flags the cell asserts (pet, miserable, domestic; forced, returnable); the
--   negative parts are chess.table1_witnesses. Generalized staircases: all sub-partitions G(k;r,c)[i,j]
--   of generalized staircases (recognised as: the distinct parts form an arithmetic progression whose
--   difference d is at least the smallest part, and every block of equal parts but the first has the
--   same size m, the first at most m).
-- covers: rook on sub-partitions of generalized staircases, rectangles, staircases
-- needs: record
-- domain: SELECT n FROM rook WHERE (is_gen_staircase_sub(parts, conjugate)) OR (distinct_sizes = 1) OR (num_parts = largest AND distinct_sizes = largest)
WITH c AS (
    SELECT 'rook' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT miserable OR NOT pair_tame(sg, sg_misere) THEN 'not miserable' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM rook
    WHERE is_gen_staircase_sub(parts, conjugate)
    UNION ALL
    SELECT 'rook' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT miserable OR NOT pair_tame(sg, sg_misere) THEN 'not miserable' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM rook
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'rook' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM rook
    WHERE num_parts = largest AND distinct_sizes = largest
)
SELECT * FROM c WHERE lacks <> ''
