-- id: slownim.example1-one-stack
-- source: slow-exact-k-nim.txt, Example 1 and Section 6 (the trivial family SN(n, 1), from [8])
-- kind: proposition
-- statement: In SN(n, 1) a move removes one token from one stack, so the number of moves of every
--   play is the total number of tokens N: the longest play has N moves, and the position is a
--   P-position iff N is even (sg = N mod 2; misère: sg_misere = 1 − N mod 2).
-- covers: SN(n, {1}) for every n >= 1 present (sn1_1, sn2_1, …); every position
-- needs: record
-- domain: SELECT n FROM slownim WHERE moves = [1]
SELECT game, n, parts, height, sg, sg_misere
FROM slownim
WHERE moves = [1]
  AND (height <> n OR sg <> n % 2 OR sg_misere <> 1 - n % 2)
ORDER BY game, n, parts
