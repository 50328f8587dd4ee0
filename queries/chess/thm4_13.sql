-- id: chess.thm4_13
-- source: impartial-chess.txt, Theorem 4.13
-- kind: theorem
-- statement: (Queen, S2) is tame and returnable, where S2 = {(5, 4^k)[i,j] : k ≥ 7} = rectangles with at most 4
--   columns and (a+1, a^m) with 1 ≤ a ≤ 4, m ≥ 7 (the 'not miserable' and 'not forced' parts are
--   chess.thm4_13_witnesses).
-- covers: queen on S2
-- needs: record
-- domain: SELECT n FROM queen WHERE (((distinct_sizes = 1 AND largest <= 4) OR (distinct_sizes = 2 AND
--   conjugate[-1] = 1 AND largest = parts[-1] + 1 AND parts[-1] <= 4 AND num_parts - 1 >= 7)))
WITH c AS (
    SELECT 'queen' AS game, 'S2' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT tame OR NOT pair_tame(sg, sg_misere) THEN 'not tame' END, CASE WHEN NOT returnable THEN 'not returnable' END) AS lacks
    FROM queen
    WHERE ((distinct_sizes = 1 AND largest <= 4) OR (distinct_sizes = 2 AND conjugate[-1] = 1 AND largest = parts[-1] + 1 AND parts[-1] <= 4 AND num_parts - 1 >= 7))
)
SELECT * FROM c WHERE lacks <> ''
