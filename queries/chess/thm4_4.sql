-- id: chess.thm4_4
-- source: impartial-chess.txt, Theorem 4.4 (with Definition 4.1 and Proposition 4.3)
-- kind: theorem
-- statement: The P-positions of a misère impartial chess game (M, λ) are exactly the (normal-play)
--   P-positions of its truncation trunc_M(λ): for every non-terminal λ, sg_misere(λ) = 0 iff
--   SG_M(trunc_M(λ)) = 0 (by Proposition 4.3 this covers every subposition λ[i,j] as its own
--   record). trunc_M(λ) keeps in row i the cells (i,j) with λ[i,j] non-terminal; that row length is
--   the largest λ_{i+1+a} − b over the moves (a,b) ∈ M (only the shortest moves matter), at least 0:
--   Downright, King, Rook, Queen max(λ_{i+1} − 1, λ_{i+2}); Pawn λ_{i+1} − 1; pawn_t λ_{i+2};
--   Knight max(λ_{i+2} − 2, λ_{i+3} − 1); Bishop λ_{i+2} − 1.
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; every non-terminal partition
-- domain: SELECT n FROM downright WHERE height > 0 UNION ALL SELECT n FROM pawn WHERE height > 0
--   UNION ALL SELECT n FROM pawn_t WHERE height > 0 UNION ALL SELECT n FROM knight WHERE height > 0
--   UNION ALL SELECT n FROM bishop WHERE height > 0 UNION ALL SELECT n FROM king WHERE height > 0
--   UNION ALL SELECT n FROM rook WHERE height > 0 UNION ALL SELECT n FROM queen WHERE height > 0
WITH t AS (
    SELECT 'downright' AS game, n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: greatest(x - 1, coalesce(parts[p + 1], 0))) AS rows_ FROM downright
    UNION ALL SELECT 'king', n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: greatest(x - 1, coalesce(parts[p + 1], 0))) FROM king
    UNION ALL SELECT 'rook', n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: greatest(x - 1, coalesce(parts[p + 1], 0))) FROM rook
    UNION ALL SELECT 'queen', n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: greatest(x - 1, coalesce(parts[p + 1], 0))) FROM queen
    UNION ALL SELECT 'pawn', n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: x - 1) FROM pawn
    UNION ALL SELECT 'pawn_t', n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: coalesce(parts[p + 1], 0)) FROM pawn_t
    UNION ALL SELECT 'knight', n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: greatest(coalesce(parts[p + 1], 0) - 2, coalesce(parts[p + 2], 0) - 1))
           FROM knight
    UNION ALL SELECT 'bishop', n, parts, sg, sg_misere, height,
           list_transform(parts, lambda x, p: coalesce(parts[p + 1], 0) - 1) FROM bishop
),
tr AS (
    SELECT game, n, parts, sg_misere, list_filter(rows_, lambda x: x > 0)::SMALLINT[] AS trunc
    FROM t WHERE height > 0
)
SELECT tr.game, tr.n, tr.parts, tr.sg_misere, tr.trunc, s.sg AS trunc_sg
FROM tr
LEFT JOIN t AS s ON s.game = tr.game AND s.parts = tr.trunc
WHERE (tr.sg_misere = 0) IS DISTINCT FROM (s.sg = 0)
