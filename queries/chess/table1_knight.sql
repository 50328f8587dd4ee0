-- id: chess.table1_knight
-- source: impartial-chess.txt, Table 1 (and Figure 7)
-- kind: theorem
-- statement: Table 1, row knight: Y+: D∩R, G: D∩R, R: P∩R, S: P∩F (columns: all partitions Y+, generalized
--   staircases G, rectangles R, staircases S; P pet, M miserable not pet, D domestic not tame, N not
--   domestic; F forced, R returnable not forced, N' not returnable). Checked here: every record of each
--   column's family has the flags the cell asserts (pet, miserable, domestic; forced, returnable); the
--   negative parts are chess.table1_witnesses. Generalized staircases: all sub-partitions G(k;r,c)[i,j]
--   of generalized staircases (recognised as: the distinct parts form an arithmetic progression whose
--   difference d is at least the smallest part, and every block of equal parts but the first has the
--   same size m, the first at most m).
-- covers: knight on all partitions, sub-partitions of generalized staircases, rectangles, staircases
-- needs: record
-- domain: SELECT n FROM knight
WITH c AS (
    SELECT 'knight' AS game, 'all partitions' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT domestic OR NOT pair_domestic(sg, sg_misere) THEN 'not domestic' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM knight
    UNION ALL
    SELECT 'knight' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT domestic OR NOT pair_domestic(sg, sg_misere) THEN 'not domestic' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM knight
    WHERE is_gen_staircase_sub(parts, conjugate)
    UNION ALL
    SELECT 'knight' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM knight
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'knight' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM knight
    WHERE num_parts = largest AND distinct_sizes = largest
)
SELECT * FROM c WHERE lacks <> ''
