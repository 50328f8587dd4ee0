-- id: chess.knight_reduction
-- source: impartial-chess.txt, Section 3.3 "Knight is solved by Downright" (and Figure 5)
-- kind: observation
-- statement: Let φ_N(λ) = λ̄ where λ̄[i,j] is well-defined iff λ[2i+j, 2j+i] is, i.e. row i of λ̄ has
--   #{j ≥ 0 : cell (2i+j, i+2j) ∈ λ} cells. Then (Knight, λ) is game-equivalent to (Downright, φ_N(λ))
--   and SG_Knight(λ) = SG_D(φ_N(λ)). Game-equivalent games have isomorphic game trees, so sg,
--   sg_misere, nodes, leaves, height and the six CGH flags agree (states is not compared). Knight
--   records with no move at all (φ_N(λ) = (1)) are included. |φ_N(λ)| ≤ |λ|, so the records with n
--   up to the largest Downright n are examined.
-- covers: knight, downright; every partition
-- domain: SELECT n FROM knight WHERE n <= (SELECT max(n) FROM downright)
WITH q AS (
    SELECT n, parts,
           row(sg, sg_misere, nodes, leaves, height, domestic, tame, pet, miserable, forced, returnable) AS v,
           list_filter(
               list_transform(range((len(parts) + 1) // 2),
                   lambda i: len(list_filter(range(len(parts) - 2 * i),
                       lambda j: parts[2 * i + j + 1] > i + 2 * j))),
               lambda x: x > 0)::SMALLINT[] AS phi
    FROM knight WHERE n <= (SELECT max(n) FROM downright)
)
SELECT 'knight' AS game, q.n, q.parts, q.v AS record, q.phi AS downright_parts,
       row(d.sg, d.sg_misere, d.nodes, d.leaves, d.height,
           d.domestic, d.tame, d.pet, d.miserable, d.forced, d.returnable) AS downright_record
FROM q
LEFT JOIN downright AS d ON record_key(d.n, d.ordinal) = part_key(q.phi)
WHERE q.v IS DISTINCT FROM row(d.sg, d.sg_misere, d.nodes, d.leaves, d.height,
                                d.domestic, d.tame, d.pet, d.miserable, d.forced, d.returnable)
