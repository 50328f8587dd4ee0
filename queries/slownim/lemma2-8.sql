-- id: slownim.lemma2-8
-- source: slow-exact-k-nim.txt, Lemma 2.8 (Generalized Reduction Lemma)
-- kind: lemma
-- statement: In SN(n, A), a move on ℓ ∈ A stacks from a reduced position p (largest stack p_n,
--   a = min A) leads to a position p' that needs reduction only if (R1) ℓ > a, all maximal stacks
--   are played on and Σ(p) = a·p_n + r with 0 <= r < ℓ − a, or (R2) some maximal stack is omitted and
--   Σ(p) = a·p_n + r with 0 <= r < ℓ. Whether p' is reduced depends only on ℓ and on whether every
--   maximal stack is played on, so each reduced record is checked with, for every legal ℓ, the move
--   on its ℓ largest stacks and (when some nonempty stack is left out) the move on its ℓ smallest
--   nonempty stacks, which omits a maximal one; p' is looked up as a record of the same game.
-- covers: every Slow SetNim game; every reduced position and move size
-- needs: followers
-- domain: SELECT n FROM slownim WHERE reduced
WITH mv AS (
    SELECT game, n, parts, moves, moves[1]::INTEGER AS a, ell::INTEGER AS ell,
           coalesce(list_sum(parts), 0) - moves[1] * parts[1] AS r,
           len(list_filter(parts, lambda x: x = parts[1])) AS alpha,
           kind,
           list_reverse_sort(list_filter(
               CASE WHEN kind = 'largest'
                    THEN list_transform(parts, lambda x, i: x - (i <= ell)::INTEGER)
                    ELSE list_transform(parts, lambda x, i: x - (i > len(parts) - ell)::INTEGER) END,
               lambda x: x > 0))::SMALLINT[] AS child
    FROM slownim, unnest(moves) AS u(ell), unnest(['largest', 'smallest']) AS k(kind)
    WHERE reduced AND ell <= len(parts) AND (kind = 'largest' OR ell < len(parts))
)
SELECT mv.game, mv.n, mv.parts, mv.ell, mv.kind, mv.alpha, mv.r, mv.child
FROM mv
LEFT JOIN slownim AS c ON c.game = mv.game AND record_key(c.n, c.ordinal) = part_key(mv.child)
WHERE NOT coalesce(c.reduced, len(mv.child) = 0)
  AND NOT CASE WHEN mv.kind = 'largest' AND mv.alpha <= mv.ell
               THEN mv.ell > mv.a AND mv.r >= 0 AND mv.r < mv.ell - mv.a
               ELSE mv.r >= 0 AND mv.r < mv.ell END
ORDER BY mv.game, mv.n, mv.parts, mv.ell, mv.kind
