-- id: chess.thm4_13_witnesses
-- source: impartial-chess.txt, Theorem 4.13, proof
-- kind: theorem
-- statement: For k ≥ 7, (Queen, (5, 4^k)) is not miserable (it has a move to a (0,1)-position but
--   none to a (1,0)-position), and its sub-position (Queen, 3^3) is returnable but not forced; so
--   (Queen, S2) is neither miserable nor forced.
-- covers: queen; the partitions (5, 4^k), k ≥ 7, and (3,3,3)
-- needs: record
-- domain: SELECT n FROM queen WHERE (distinct_sizes = 2 AND conjugate[-1] = 1 AND largest = 5 AND parts[-1] = 4
--   AND num_parts >= 8) OR parts = [3, 3, 3]::SMALLINT[]
SELECT 'queen' AS game, n, parts, sg, sg_misere, 'miserable' AS has_excluded_property
FROM queen
WHERE distinct_sizes = 2 AND conjugate[-1] = 1 AND largest = 5 AND parts[-1] = 4 AND num_parts >= 8 AND miserable
UNION ALL
SELECT 'queen', n, parts, sg, sg_misere, 'forced' FROM queen WHERE parts = [3, 3, 3]::SMALLINT[] AND forced
