-- id: chess.prop3_7
-- source: impartial-chess.txt, Proposition 3.7
-- kind: erratum
-- statement: Mirror identities, whenever the subpartition is nonempty: SG_D(λ) = SG_D(λ[1,1]);
--   SG_Pawn(λ) = SG_Pawn(λ[2,1]); SG_Knight(λ) = SG_Knight(λ[3,3]).
-- correction: docs/definitions.md §8.4: the printed λ[2,1] identity holds for the transposed pawn (pawn_t, moves
--   down or diagonal). For the Pawn of Definition 3.1 (our pawn, right or diagonal) the identity is
--   SG(λ) = SG(λ[1,2]). The corrected query checks downright [1,1], pawn [1,2], pawn_t [2,1],
--   knight [3,3]; the printed form checks SG_pawn(λ) = SG_pawn(λ[2,1]).
-- covers: pawn, pawn_t, knight; every partition whose mirror subpartition is nonempty (the Downright
--   identity, read from the record's neighbourhood, is chess.prop3_7_downright)
-- needs: followers
-- domain: SELECT n FROM pawn WHERE len(parts) >= 2 AND parts[2] > 2 AND verify_subject(n)
--   UNION ALL SELECT n FROM pawn_t WHERE len(parts) >= 3 AND parts[3] > 1 AND verify_subject(n)
--   UNION ALL SELECT n FROM knight WHERE len(parts) >= 4 AND parts[4] > 3 AND verify_subject(n)
WITH m AS (
    SELECT 'pawn' AS game, n, parts, sg, [1, 2] AS cell,
           list_filter(list_transform(parts[2:], lambda x: x - 2), lambda x: x > 0)::SMALLINT[] AS mirror
    FROM pawn WHERE len(parts) >= 2 AND parts[2] > 2 AND verify_subject(n)
    UNION ALL
    SELECT 'pawn_t', n, parts, sg, [2, 1],
           list_filter(list_transform(parts[3:], lambda x: x - 1), lambda x: x > 0)::SMALLINT[]
    FROM pawn_t WHERE len(parts) >= 3 AND parts[3] > 1 AND verify_subject(n)
    UNION ALL
    SELECT 'knight', n, parts, sg, [3, 3],
           list_filter(list_transform(parts[4:], lambda x: x - 3), lambda x: x > 0)::SMALLINT[]
    FROM knight WHERE len(parts) >= 4 AND parts[4] > 3 AND verify_subject(n)
),
s AS (
    SELECT 'pawn' AS game, parts, sg, record_key(n, ordinal) AS key FROM pawn
    UNION ALL SELECT 'pawn_t', parts, sg, record_key(n, ordinal) FROM pawn_t
    UNION ALL SELECT 'knight', parts, sg, record_key(n, ordinal) FROM knight
)
SELECT m.game, m.n, m.parts, m.sg, m.cell, m.mirror, s.sg AS mirror_sg
FROM m
LEFT JOIN s ON s.game = m.game AND s.key = part_key(m.mirror)
WHERE s.sg IS DISTINCT FROM m.sg
-- printed form:
SELECT 'pawn' AS game, a.n, a.parts, a.sg, b.parts AS mirror, b.sg AS mirror_sg
FROM pawn AS a
JOIN pawn AS b ON record_key(b.n, b.ordinal) = part_key(list_filter(list_transform(a.parts[3:], lambda x: x - 1), lambda x: x > 0)::SMALLINT[])
WHERE len(a.parts) >= 3 AND a.parts[3] > 1 AND verify_subject(a.n) AND a.sg <> b.sg
