-- id: chess.thm4_8
-- source: impartial-chess.txt, Theorem 4.8
-- kind: theorem
-- statement: Bishop (on all partitions), (Pawn, rectangles), (Rook, staircases), (Queen, staircases) and (Knight,
--   staircases) are pet and forced: every such record has the pet and forced flags. Rectangles and
--   staircases are closed under conjugation, so both Pawn orientations are checked.
-- covers: bishop; pawn, pawn_t on rectangles; rook, queen, knight on staircases
-- needs: record
-- domain: SELECT n FROM bishop
--   UNION ALL SELECT n FROM pawn WHERE (distinct_sizes = 1)
--   UNION ALL SELECT n FROM pawn_t WHERE (distinct_sizes = 1)
--   UNION ALL SELECT n FROM rook WHERE (num_parts = largest AND distinct_sizes = largest)
--   UNION ALL SELECT n FROM queen WHERE (num_parts = largest AND distinct_sizes = largest)
--   UNION ALL SELECT n FROM knight WHERE (num_parts = largest AND distinct_sizes = largest)
WITH c AS (
    SELECT 'bishop' AS game, 'all partitions' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM bishop
    UNION ALL
    SELECT 'pawn' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM pawn
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'pawn_t' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM pawn_t
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'rook' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM rook
    WHERE num_parts = largest AND distinct_sizes = largest
    UNION ALL
    SELECT 'queen' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM queen
    WHERE num_parts = largest AND distinct_sizes = largest
    UNION ALL
    SELECT 'knight' AS game, 'staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM knight
    WHERE num_parts = largest AND distinct_sizes = largest
)
SELECT * FROM c WHERE lacks <> ''
