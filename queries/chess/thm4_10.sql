-- id: chess.thm4_10
-- source: impartial-chess.txt, Theorem 4.10
-- kind: theorem
-- statement: (Rook, rectangles), (King, rectangles) and (Rook, generalized staircases) are forced and miserable
--   (the 'but not pet' part is chess.thm4_10_witnesses). Generalized staircases: all sub-partitions
--   G(k;r,c)[i,j] of generalized staircases (recognised as: the distinct parts form an arithmetic
--   progression whose difference d is at least the smallest part, and every block of equal parts but the
--   first has the same size m, the first at most m).
-- covers: rook, king on rectangles; rook on sub-partitions of generalized staircases
-- domain: SELECT n FROM rook WHERE ((CASE WHEN distinct_sizes = 1 THEN true ELSE (largest - parts[-1]) %
--   greatest(distinct_sizes - 1, 1) = 0 AND (num_parts - conjugate[-1]) % greatest(distinct_sizes - 1, 1) =
--   0 AND parts[-1] <= (largest - parts[-1]) // greatest(distinct_sizes - 1, 1) AND conjugate[-1] <=
--   (num_parts - conjugate[-1]) // greatest(distinct_sizes - 1, 1) AND list_bool_and(list_transform(parts,
--   lambda x, p: p <= conjugate[-1] OR x = largest - (largest - parts[-1]) // greatest(distinct_sizes - 1,
--   1) * (1 + (p - conjugate[-1] - 1) // greatest((num_parts - conjugate[-1]) // greatest(distinct_sizes -
--   1, 1), 1)))) END)) OR (distinct_sizes = 1)
--   UNION ALL SELECT n FROM king WHERE (distinct_sizes = 1)
WITH c AS (
    SELECT 'rook' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT forced THEN 'not forced' END, CASE WHEN NOT miserable THEN 'not miserable' END) AS lacks
    FROM rook
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'king' AS game, 'rectangles' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT forced THEN 'not forced' END, CASE WHEN NOT miserable THEN 'not miserable' END) AS lacks
    FROM king
    WHERE distinct_sizes = 1
    UNION ALL
    SELECT 'rook' AS game, 'sub-partitions of generalized staircases' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT forced THEN 'not forced' END, CASE WHEN NOT miserable THEN 'not miserable' END) AS lacks
    FROM rook
    WHERE (CASE WHEN distinct_sizes = 1 THEN true ELSE
        (largest - parts[-1]) % greatest(distinct_sizes - 1, 1) = 0
        AND (num_parts - conjugate[-1]) % greatest(distinct_sizes - 1, 1) = 0
        AND parts[-1] <= (largest - parts[-1]) // greatest(distinct_sizes - 1, 1)
        AND conjugate[-1] <= (num_parts - conjugate[-1]) // greatest(distinct_sizes - 1, 1)
        AND list_bool_and(list_transform(parts, lambda x, p: p <= conjugate[-1] OR x = largest
            - (largest - parts[-1]) // greatest(distinct_sizes - 1, 1) * (1 + (p - conjugate[-1] - 1)
              // greatest((num_parts - conjugate[-1]) // greatest(distinct_sizes - 1, 1), 1))))
    END)
)
SELECT * FROM c WHERE lacks <> ''
