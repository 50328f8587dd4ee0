-- id: slownim.example1-all-stacks
-- source: slow-exact-k-nim.txt, Example 1 and Section 6 (the trivial family SN(n, n), from [8])
-- kind: proposition
-- statement: In SN(n, n) every move takes one token from each of the n stacks, so every play has as
--   many moves as the smallest stack m has tokens (m = 0 when fewer than n stacks are nonempty): the
--   longest play has m moves, and the position is a P-position iff m is even (sg = m mod 2;
--   misère: sg_misere = 1 − m mod 2).
-- covers: SN(n, {n}) for every n >= 1 present (sn1_1, sn2_2, sn3_3, …); every position
-- needs: record
-- domain: SELECT n FROM slownim WHERE moves = [stacks]
WITH t AS (
    SELECT game, n, parts, height, sg, sg_misere,
           CASE WHEN len(parts) < stacks THEN 0 ELSE parts[-1] END AS m
    FROM slownim
    WHERE moves = [stacks]
)
SELECT game, n, parts, m, height, sg, sg_misere
FROM t
WHERE height <> m OR sg <> m % 2 OR sg_misere <> 1 - m % 2
ORDER BY game, n, parts
