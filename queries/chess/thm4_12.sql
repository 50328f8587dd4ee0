-- id: chess.thm4_12
-- source: impartial-chess.txt, Theorem 4.12
-- kind: theorem
-- statement: (Rook, S1) is forced and tame, where S1 = {(ℓ+1, ℓ^k)[i,j] : ℓ ≥ 3, k > ℓ} = rectangles and (a+1,
--   a^m) with a ≥ 1, m > max(a, 3) (the 'not miserable' part is chess.thm4_12_witnesses).
-- covers: rook on S1
-- needs: record
-- domain: SELECT n FROM rook WHERE ((distinct_sizes = 1 OR (distinct_sizes = 2 AND conjugate[-1] = 1 AND largest =
--   parts[-1] + 1 AND num_parts - 1 > greatest(parts[-1], 3))))
WITH c AS (
    SELECT 'rook' AS game, 'S1' AS family, n, parts, sg, sg_misere,
           concat_ws(', ', CASE WHEN NOT forced THEN 'not forced' END, CASE WHEN NOT tame OR NOT pair_tame(sg, sg_misere) THEN 'not tame' END) AS lacks
    FROM rook
    WHERE (distinct_sizes = 1 OR (distinct_sizes = 2 AND conjugate[-1] = 1 AND largest = parts[-1] + 1 AND num_parts - 1 > greatest(parts[-1], 3)))
)
SELECT * FROM c WHERE lacks <> ''
