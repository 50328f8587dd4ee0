-- id: chess.pawn_reduction
-- source: impartial-chess.txt, Section 3.3 "Pawn is solved by Downright" (and Figure 5)
-- kind: observation
-- statement: With φ(λ) = (λ1, λ2 − 1, …, λr − r + 1) (nonpositive entries omitted), (Pawn, λ) is
--   game-equivalent to (Downright, φ(λ)); in particular SG_Pawn(λ) = SG_D(φ(λ)). By conjugation
--   (Observation 3.4) the transposed pawn satisfies (pawn_t, λ) ≅ (Downright, φ(λ')). Game-equivalent
--   games have isomorphic game trees, so sg, sg_misere, nodes, leaves, height and the six CGH flags
--   agree (states is not compared: φ may identify distinct positions). |φ(λ)| ≤ |λ|, so the records
--   with n up to the largest Downright n are examined.
-- correction: docs/definitions.md §8.4: φ fits the Pawn of Definition 3.1 (our pawn, right or diagonal); the
--   pawn_t line is its transpose.
-- covers: pawn, pawn_t, downright; every partition
-- domain: SELECT n FROM pawn WHERE n <= (SELECT max(n) FROM downright)
--   UNION ALL SELECT n FROM pawn_t WHERE n <= (SELECT max(n) FROM downright)
WITH p AS (
    SELECT 'pawn' AS game, n, parts, parts AS base,
           row(sg, sg_misere, nodes, leaves, height, domestic, tame, pet, miserable, forced, returnable) AS v
    FROM pawn WHERE n <= (SELECT max(n) FROM downright)
    UNION ALL
    SELECT 'pawn_t', n, parts, conjugate,
           row(sg, sg_misere, nodes, leaves, height, domestic, tame, pet, miserable, forced, returnable)
    FROM pawn_t WHERE n <= (SELECT max(n) FROM downright)
),
q AS (
    SELECT *, list_filter(list_transform(base, lambda x, i: x - i + 1), lambda x: x > 0)::SMALLINT[] AS phi
    FROM p
)
SELECT q.game, q.n, q.parts, q.v AS record, q.phi AS downright_parts,
       row(d.sg, d.sg_misere, d.nodes, d.leaves, d.height,
           d.domestic, d.tame, d.pet, d.miserable, d.forced, d.returnable) AS downright_record
FROM q
LEFT JOIN downright AS d ON record_key(d.n, d.ordinal) = part_key(q.phi)
WHERE q.v IS DISTINCT FROM row(d.sg, d.sg_misere, d.nodes, d.leaves, d.height,
                                d.domestic, d.tame, d.pet, d.miserable, d.forced, d.returnable)
