-- id: chess.thm4_15
-- source: impartial-chess.txt, Theorem 4.15, proof
-- kind: erratum
-- statement: Rook, Queen and (King, generalized staircases) are neither domestic nor returnable: G±_Rook((5,4^3))
--   = (4,0), G±_Queen((9,8^4)) = (0,10) and G±_King(G(4;2,2)[0,1]) = (3,0), G(4;2,2)[0,1] =
--   (7,7,5,5,3,3,1,1), are not domestic; G±_Rook((6,5^4)) = (0,1) and (6,5^4)[1,0] has no move to a
--   (0,1)-position; G±_Queen((11^13,10^4)) = (0,1) and its [12,0] has no move to a (0,1)-position;
--   G±_King(G(2;4,3)[1,0]) = (1,0) and G(2;4,3)[2,0] has no move to a (1,0)-position. Checked per
--   witness: the record's pair, its domestic/returnable flag being false, and for the returnable
--   witnesses x that y is a move from x, y is non-terminal and no move from y reaches a position with
--   x's pair (the definition of non-returnable).
-- correction: docs/definitions.md §8.6: Queen (9,8^4) is (10,0), not (0,10); Rook (6,5^4) and Queen (11^13,10^4) are (1,0), not
--   (0,1) (the conclusions stand: no move from y reaches a (1,0)-position); the King example needs
--   G(2;3,4) = (8^3,4^3), the transpose of the printed G(2;4,3), whose [1,0] is a (2,0)-position. The
--   corrected query uses these; the printed form the printed pairs and G(2;4,3).
-- covers: rook, queen, king; the witness records (5,4^3), (9,8^4), (7,7,5,5,3,3,1,1), (6,5^4), (11^13,10^4),
--   (8,8,4,4,4)
-- needs: followers
-- witnesses: SELECT DISTINCT game || ' ' || parts::VARCHAR AS witness, stored(game, list_sum(parts)) AS present
--   FROM thm4_15_witnesses(false)
-- domain: SELECT n FROM (SELECT 'king' AS game, n, parts FROM king UNION ALL SELECT 'queen', n, parts FROM queen
--   UNION ALL SELECT 'rook', n, parts FROM rook) SEMI JOIN thm4_15_witnesses(false) USING (game, parts)
-- The witnesses, as corrected and as printed, are the table macro thm4_15_witnesses (queries/macros.sql).
WITH w AS (FROM thm4_15_witnesses(false))
SELECT * FROM witness_check('w')
-- printed form:
WITH w AS (FROM thm4_15_witnesses(true))
SELECT * FROM witness_check('w')
