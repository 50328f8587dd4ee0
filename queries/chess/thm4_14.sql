-- id: chess.thm4_14
-- source: impartial-chess.txt, Theorem 4.14
-- kind: theorem
-- statement: Knight (on all partitions) and (Knight, generalized staircases) are domestic and returnable (the
--   'not tame' and 'not forced' parts are chess.thm4_14_witnesses).
-- covers: knight on all partitions and on sub-partitions of generalized staircases
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
)
SELECT * FROM c WHERE lacks <> ''
