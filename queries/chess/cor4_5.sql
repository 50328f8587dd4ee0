-- id: chess.cor4_5
-- source: impartial-chess.txt, Corollary 4.5 (with Theorem 4.4)
-- kind: corollary
-- statement: If {(1,0), (0,1)} ⊆ M (Downright, King, Rook, Queen) then trunc_M(λ) = λ⁻, λ with all
--   its corners removed. With Theorem 4.4: for every λ other than (1), sg_misere(λ) = 0 iff
--   SG_M(λ⁻) = 0.
-- covers: downright, king, rook, queen; every partition except (1)
-- needs: followers
-- domain: SELECT n FROM downright WHERE n > 1 AND verify_subject(n) UNION ALL SELECT n FROM king WHERE n > 1 AND verify_subject(n)
--   UNION ALL SELECT n FROM rook WHERE n > 1 AND verify_subject(n) UNION ALL SELECT n FROM queen WHERE n > 1 AND verify_subject(n)
WITH c AS (
    SELECT 'downright' AS game, m.n, m.parts, m.sg_misere, m.minus AS corners_removed, s.sg AS corners_removed_sg
    FROM (SELECT n, parts, sg_misere,
                 list_filter(list_transform(list_zip(parts, parts[2:]),
                                            lambda z: CASE WHEN z[1] > coalesce(z[2], 0) THEN z[1] - 1 ELSE z[1] END),
                             lambda x: x > 0)::SMALLINT[] AS minus
          FROM downright WHERE n > 1 AND verify_subject(n)) AS m
    LEFT JOIN downright AS s ON record_key(s.n, s.ordinal) = part_key(m.minus)
    UNION ALL
    SELECT 'king' AS game, m.n, m.parts, m.sg_misere, m.minus AS corners_removed, s.sg AS corners_removed_sg
    FROM (SELECT n, parts, sg_misere,
                 list_filter(list_transform(list_zip(parts, parts[2:]),
                                            lambda z: CASE WHEN z[1] > coalesce(z[2], 0) THEN z[1] - 1 ELSE z[1] END),
                             lambda x: x > 0)::SMALLINT[] AS minus
          FROM king WHERE n > 1 AND verify_subject(n)) AS m
    LEFT JOIN king AS s ON record_key(s.n, s.ordinal) = part_key(m.minus)
    UNION ALL
    SELECT 'rook' AS game, m.n, m.parts, m.sg_misere, m.minus AS corners_removed, s.sg AS corners_removed_sg
    FROM (SELECT n, parts, sg_misere,
                 list_filter(list_transform(list_zip(parts, parts[2:]),
                                            lambda z: CASE WHEN z[1] > coalesce(z[2], 0) THEN z[1] - 1 ELSE z[1] END),
                             lambda x: x > 0)::SMALLINT[] AS minus
          FROM rook WHERE n > 1 AND verify_subject(n)) AS m
    LEFT JOIN rook AS s ON record_key(s.n, s.ordinal) = part_key(m.minus)
    UNION ALL
    SELECT 'queen' AS game, m.n, m.parts, m.sg_misere, m.minus AS corners_removed, s.sg AS corners_removed_sg
    FROM (SELECT n, parts, sg_misere,
                 list_filter(list_transform(list_zip(parts, parts[2:]),
                                            lambda z: CASE WHEN z[1] > coalesce(z[2], 0) THEN z[1] - 1 ELSE z[1] END),
                             lambda x: x > 0)::SMALLINT[] AS minus
          FROM queen WHERE n > 1 AND verify_subject(n)) AS m
    LEFT JOIN queen AS s ON record_key(s.n, s.ordinal) = part_key(m.minus)
)
SELECT * FROM c WHERE (sg_misere = 0) IS DISTINCT FROM (corners_removed_sg = 0)
