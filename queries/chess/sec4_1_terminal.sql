-- id: chess.sec4_1_terminal
-- source: impartial-chess.txt, Section 4.1, text after Corollary 4.5
-- kind: erratum
-- statement: (Knight, λ) is terminal precisely when λ2 ≤ 2 and λ3 ≤ 1; (Pawn, λ) is terminal
--   precisely when r = 1. (A record is terminal iff its height is 0.)
-- correction: docs/definitions.md §8.4: "terminal iff r = 1" holds for the transposed pawn (pawn_t, down or
--   diagonal). The Pawn of Definition 3.1 (our pawn, right or diagonal) is terminal iff λ1 = 1. The
--   corrected query checks Knight, pawn_t (r = 1) and pawn (λ1 = 1); the printed form checks
--   "pawn terminal iff r = 1".
-- covers: knight, pawn, pawn_t; every partition
-- needs: record
-- domain: SELECT n FROM knight UNION ALL SELECT n FROM pawn UNION ALL SELECT n FROM pawn_t
SELECT 'knight' AS game, n, parts, height FROM knight
WHERE (height = 0) <> (coalesce(parts[2], 0) <= 2 AND coalesce(parts[3], 0) <= 1)
UNION ALL
SELECT 'pawn_t', n, parts, height FROM pawn_t WHERE (height = 0) <> (num_parts = 1)
UNION ALL
SELECT 'pawn', n, parts, height FROM pawn WHERE (height = 0) <> (largest = 1)
-- printed form:
SELECT 'pawn' AS game, n, parts, height FROM pawn WHERE (height = 0) <> (num_parts = 1)
