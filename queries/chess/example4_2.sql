-- id: chess.example4_2
-- source: impartial-chess.txt, Example 4.2 (with Definition 4.1 and Theorem 4.4)
-- kind: observation
-- statement: trunc_Knight((5,5,5,3,3,2,1)) = (4,3,2,1), which is partition-equivalent to (3,3,2) in
--   Knight (same Knight record: sg, sg_misere, nodes, leaves, height, flags), and the misère
--   P/N status of (5,5,5,3,3,2,1) is the normal P/N status of (4,3,2,1) (Theorem 4.4).
-- covers: knight; the partitions (5,5,5,3,3,2,1), (4,3,2,1), (3,3,2)
-- domain: SELECT n FROM knight WHERE parts = [5, 5, 5, 3, 3, 2, 1]::SMALLINT[]
WITH l AS (
    SELECT n, parts, sg_misere,
           list_filter(list_transform(parts, lambda x, p: greatest(coalesce(parts[p + 1], 0) - 2,
                                                                   coalesce(parts[p + 2], 0) - 1)),
                       lambda x: x > 0)::SMALLINT[] AS trunc
    FROM knight WHERE parts = [5, 5, 5, 3, 3, 2, 1]::SMALLINT[]
),
rec AS (
    SELECT parts, sg, row(sg, sg_misere, nodes, leaves, height, domestic, tame, pet, miserable, forced, returnable) AS v
    FROM knight WHERE parts IN ([4, 3, 2, 1]::SMALLINT[], [3, 3, 2]::SMALLINT[])
)
SELECT 'knight' AS game, l.n, l.parts, l.trunc, l.sg_misere, a.v AS record_4321, b.v AS record_332
FROM l
LEFT JOIN rec AS a ON a.parts = [4, 3, 2, 1]::SMALLINT[]
LEFT JOIN rec AS b ON b.parts = [3, 3, 2]::SMALLINT[]
WHERE l.trunc <> [4, 3, 2, 1]::SMALLINT[]
   OR a.v IS DISTINCT FROM b.v
   OR (l.sg_misere = 0) IS DISTINCT FROM (a.sg = 0)
