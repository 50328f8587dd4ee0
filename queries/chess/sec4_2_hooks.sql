-- id: chess.sec4_2_hooks
-- source: impartial-chess.txt, Section 4.2 (before Theorem 4.8) and Section 5
-- kind: observation
-- statement: Restricted to hooks H(r,c) = (c, 1^{r−1}) (rows and columns included; the family is closed under
--   sub-partitions), every impartial chess game of the paper is pet and forced.
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen on hooks
-- needs: record
-- domain: SELECT n FROM downright WHERE (coalesce(parts[2], 0) <= 1)
--   UNION ALL SELECT n FROM pawn WHERE (coalesce(parts[2], 0) <= 1)
--   UNION ALL SELECT n FROM pawn_t WHERE (coalesce(parts[2], 0) <= 1)
--   UNION ALL SELECT n FROM knight WHERE (coalesce(parts[2], 0) <= 1)
--   UNION ALL SELECT n FROM bishop WHERE (coalesce(parts[2], 0) <= 1)
--   UNION ALL SELECT n FROM king WHERE (coalesce(parts[2], 0) <= 1)
--   UNION ALL SELECT n FROM rook WHERE (coalesce(parts[2], 0) <= 1)
--   UNION ALL SELECT n FROM queen WHERE (coalesce(parts[2], 0) <= 1)
WITH c AS (
    SELECT 'downright' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM downright
    WHERE coalesce(parts[2], 0) <= 1
    UNION ALL
    SELECT 'pawn' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM pawn
    WHERE coalesce(parts[2], 0) <= 1
    UNION ALL
    SELECT 'pawn_t' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM pawn_t
    WHERE coalesce(parts[2], 0) <= 1
    UNION ALL
    SELECT 'knight' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM knight
    WHERE coalesce(parts[2], 0) <= 1
    UNION ALL
    SELECT 'bishop' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM bishop
    WHERE coalesce(parts[2], 0) <= 1
    UNION ALL
    SELECT 'king' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM king
    WHERE coalesce(parts[2], 0) <= 1
    UNION ALL
    SELECT 'rook' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM rook
    WHERE coalesce(parts[2], 0) <= 1
    UNION ALL
    SELECT 'queen' AS game, 'hooks' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT pet OR NOT pair_pet(sg, sg_misere) THEN 'not pet' END, CASE WHEN NOT forced THEN 'not forced' END) AS lacks
    FROM queen
    WHERE coalesce(parts[2], 0) <= 1
)
SELECT * FROM c WHERE lacks <> ''
