-- id: chess.cor4_5
-- source: impartial-chess.txt, Corollary 4.5 (with Theorem 4.4)
-- kind: corollary
-- statement: If {(1,0), (0,1)} ⊆ M (Downright, King, Rook, Queen) then trunc_M(λ) = λ⁻, λ with all
--   its corners removed. With Theorem 4.4: for every λ other than (1), sg_misere(λ) = 0 iff
--   SG_M(λ⁻) = 0.
-- covers: downright, king, rook, queen; every partition except (1)
-- domain: SELECT n FROM downright WHERE n > 1 UNION ALL SELECT n FROM king WHERE n > 1
--   UNION ALL SELECT n FROM rook WHERE n > 1 UNION ALL SELECT n FROM queen WHERE n > 1
WITH t AS (
    SELECT 'downright' AS game, n, parts, sg, sg_misere FROM downright
    UNION ALL SELECT 'king', n, parts, sg, sg_misere FROM king
    UNION ALL SELECT 'rook', n, parts, sg, sg_misere FROM rook
    UNION ALL SELECT 'queen', n, parts, sg, sg_misere FROM queen
),
m AS (
    SELECT game, n, parts, sg_misere,
           list_filter(list_transform(parts, lambda x, p: CASE WHEN p = len(parts) OR x > parts[p + 1]
                                                              THEN x - 1 ELSE x END),
                       lambda x: x > 0)::SMALLINT[] AS minus
    FROM t WHERE n > 1
)
SELECT m.game, m.n, m.parts, m.sg_misere, m.minus AS corners_removed, s.sg AS corners_removed_sg
FROM m
LEFT JOIN t AS s ON s.game = m.game AND s.parts = m.minus
WHERE (m.sg_misere = 0) IS DISTINCT FROM (s.sg = 0)
