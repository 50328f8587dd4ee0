-- id: chess.thm4_4_knight
-- source: impartial-chess.txt, Theorem 4.4 (with Definition 4.1 and Proposition 4.3)
-- kind: theorem
-- statement: The P-positions of a misère impartial chess game (M, λ) are exactly the (normal-play)
--   P-positions of its truncation trunc_M(λ): for every non-terminal λ, sg_misere(λ) = 0 iff
--   SG_M(trunc_M(λ)) = 0 (by Proposition 4.3 this covers every subposition λ[i,j] as its own
--   record). trunc_M(λ) keeps in row i the cells (i,j) with λ[i,j] non-terminal; that row length is
--   the largest λ_{i+1+a} − b over the moves (a,b) ∈ M (only the shortest moves matter), at least 0:
--   Downright, King, Rook, Queen max(λ_{i+1} − 1, λ_{i+2}); Pawn λ_{i+1} − 1; pawn_t λ_{i+2};
--   Knight max(λ_{i+2} − 2, λ_{i+3} − 1); Bishop λ_{i+2} − 1.
-- covers: knight; every non-terminal partition (the other pieces are chess.thm4_4)
-- needs: followers
-- domain: SELECT n FROM knight WHERE height > 0 AND verify_subject(n)
WITH tr AS (
    SELECT 'knight' AS game, t.n, t.parts, t.sg_misere, t.trunc, s.sg AS trunc_sg
    FROM (SELECT n, parts, sg_misere,
                 list_filter(list_transform(list_zip(parts[2:], parts[3:]), lambda z: greatest(z[1] - 2, coalesce(z[2], 0) - 1)),
                             lambda x: x > 0)::SMALLINT[] AS trunc
          FROM knight WHERE height > 0 AND verify_subject(n)) AS t
    LEFT JOIN knight AS s ON record_key(s.n, s.ordinal) = part_key(t.trunc)
)
SELECT * FROM tr WHERE (sg_misere = 0) IS DISTINCT FROM (trunc_sg = 0)
