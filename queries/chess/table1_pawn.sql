-- id: chess.table1_pawn
-- source: impartial-chess.txt, Table 1 (and Figure 7)
-- kind: theorem
-- statement: Table 1, row pawn: Y+: P∩R, G: P∩R, R: P∩F, S: P∩R (columns: all partitions Y+, generalized
--   staircases G, rectangles R, staircases S; P pet, M miserable not pet, D domestic not tame, N not
--   domestic; F forced, R returnable not forced, N' not returnable). Checked here: every record of each
--   column's family has the flags the cell asserts (pet, miserable, domestic; forced, returnable); the
--   negative parts are chess.table1_witnesses. Generalized staircases: all sub-partitions G(k;r,c)[i,j]
--   of generalized staircases (recognised as: the distinct parts form an arithmetic progression whose
--   difference d is at least the smallest part, and every block of equal parts but the first has the
--   same size m, the first at most m). Both Pawn orientations are checked: the four families are closed
--   under conjugation, so pawn and pawn_t have the same classification.
-- covers: pawn, pawn_t on all partitions, sub-partitions of generalized staircases, rectangles, staircases
-- needs: record
-- domain: SELECT n FROM pawn
--   UNION ALL SELECT n FROM pawn_t
WITH c AS (
    SELECT 'pawn' AS game, 'all partitions' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn
    UNION ALL
    SELECT 'pawn' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn
    WHERE is_gen_staircase_sub(parts, conjugate)
    UNION ALL
    SELECT 'pawn' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM pawn
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'pawn' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn
    WHERE num_parts = largest AND distinct_sizes = largest
    UNION ALL
    SELECT 'pawn_t' AS game, 'all partitions' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn_t
    UNION ALL
    SELECT 'pawn_t' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn_t
    WHERE is_gen_staircase_sub(parts, conjugate)
    UNION ALL
    SELECT 'pawn_t' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM pawn_t
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'pawn_t' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn_t
    WHERE num_parts = largest AND distinct_sizes = largest
)
SELECT * FROM c WHERE lacks <> ''
