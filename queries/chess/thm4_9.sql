-- id: chess.thm4_9
-- source: impartial-chess.txt, Theorem 4.9
-- kind: theorem
-- statement: Pawn (on all partitions), (Knight, rectangles), (King, staircases), (Pawn, staircases) and
--   (Downright, generalized staircases) are pet and returnable (the 'but not forced' part is
--   chess.thm4_9_witnesses). The family of generalized staircases is that of Table 1: all sub-partitions
--   G(k;r,c)[i,j] of generalized staircases (recognised as: the distinct parts form an arithmetic
--   progression whose difference d is at least the smallest part, and every block of equal parts but the
--   first has the same size m, the first at most m). Both Pawn orientations are checked (the families
--   are closed under conjugation).
-- covers: pawn, pawn_t; knight on rectangles; king, pawn, pawn_t on staircases; downright on sub-partitions of
--   generalized staircases
-- needs: record
-- domain: SELECT n FROM pawn
--   UNION ALL SELECT n FROM pawn_t
--   UNION ALL SELECT n FROM knight WHERE (distinct_sizes = 1)
--   UNION ALL SELECT n FROM king WHERE (num_parts = largest AND distinct_sizes = largest)
--   UNION ALL SELECT n FROM downright WHERE (is_gen_staircase_sub(parts, conjugate))
WITH c AS (
    SELECT 'pawn' AS game, 'all partitions' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn
    UNION ALL
    SELECT 'pawn_t' AS game, 'all partitions' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn_t
    UNION ALL
    SELECT 'knight' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM knight
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'king' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM king
    WHERE num_parts = largest AND distinct_sizes = largest
    UNION ALL
    SELECT 'pawn' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn
    WHERE num_parts = largest AND distinct_sizes = largest
    UNION ALL
    SELECT 'pawn_t' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM pawn_t
    WHERE num_parts = largest AND distinct_sizes = largest
    UNION ALL
    SELECT 'downright' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM downright
    WHERE is_gen_staircase_sub(parts, conjugate)
)
SELECT * FROM c WHERE lacks <> ''
