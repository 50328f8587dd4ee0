-- id: slownim.example8
-- source: slow-exact-k-nim.txt, Example 8 (with Remark 4.2)
-- kind: observation
-- statement: Example 8 argues that no other position reduces to the reduced position
--   p = (10,10,11,11,11) of SN(5,4) because q = (10,10,11,11,12), one more token on a largest stack,
--   is also reduced: any position with additional tokens reduces to q (or to another reduced
--   position) instead. In general, for a reduced p and q = p plus one token on a largest stack: if q
--   is reduced, no position other than p reduces to p, and if q is not reduced, r(q) = p (so, by
--   Remark 4.2, infinitely many positions reduce to p). Checked on every reduced record whose q is
--   present, against all records present (larger positions are not computed).
-- covers: every Slow SetNim game; every reduced position with N < the largest N computed
-- needs: followers
-- domain: SELECT p.n FROM slownim AS p JOIN slownim AS q ON q.game = p.game
--   AND record_key(q.n, q.ordinal) = part_key(list_concat([p.parts[1] + 1], p.parts[2:])::SMALLINT[]) WHERE p.reduced
WITH pq AS (
    SELECT p.game, p.n, p.parts, q.parts AS q_parts, q.reduced AS q_reduced,
           q.reduced_parts AS q_reduced_parts
    FROM slownim AS p
    JOIN slownim AS q ON q.game = p.game AND record_key(q.n, q.ordinal) = part_key(list_concat([p.parts[1] + 1], p.parts[2:])::SMALLINT[])
    WHERE p.reduced
), preimages AS (
    SELECT game, reduced_parts, list(parts ORDER BY n, parts) AS reducing_to_it
    FROM slownim
    WHERE NOT reduced
    GROUP BY game, reduced_parts
)
SELECT pq.game, pq.n, pq.parts, pq.q_parts, pq.q_reduced, pq.q_reduced_parts, pre.reducing_to_it
FROM pq
LEFT JOIN preimages AS pre ON pre.game = pq.game AND pre.reduced_parts = pq.parts
WHERE (pq.q_reduced AND pre.reducing_to_it IS NOT NULL)
   OR (NOT pq.q_reduced AND pq.q_reduced_parts IS DISTINCT FROM pq.parts)
ORDER BY pq.game, pq.n, pq.parts
