-- id: chess.thm4_11
-- source: impartial-chess.txt, Theorem 4.11
-- kind: theorem
-- statement: (Queen, rectangles) (Wythoff) and (Queen, generalized staircases) are miserable and returnable (the
--   'not pet' and 'not forced' parts, for which the paper omits the proof, are chess.table1_witnesses).
--   Generalized staircases: all sub-partitions G(k;r,c)[i,j] of generalized staircases (recognised as:
--   the distinct parts form an arithmetic progression whose difference d is at least the smallest part,
--   and every block of equal parts but the first has the same size m, the first at most m).
-- covers: queen on rectangles and on sub-partitions of generalized staircases
-- needs: record
-- domain: SELECT n FROM queen WHERE (is_gen_staircase_sub(parts, conjugate)) OR (distinct_sizes = 1)
WITH c AS (
    SELECT 'queen' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT miserable OR NOT pair_tame(sg, sg_misere) THEN 'not miserable' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM queen
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'queen' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT miserable OR NOT pair_tame(sg, sg_misere) THEN 'not miserable' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM queen
    WHERE is_gen_staircase_sub(parts, conjugate)
)
SELECT * FROM c WHERE lacks <> ''
