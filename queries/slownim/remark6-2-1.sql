-- id: slownim.remark6-2-1
-- source: slow-exact-k-nim.txt, Remark 6.2 (1)
-- kind: observation
-- statement: For even n, the P-positions of SN(n, {1, n}) are exactly the positions that are
--   P-positions of both SN(n, 1) and SN(n, n). Checked on the positions present in all three games.
-- covers: n even with sn<n>_1-<n>, sn<n>_1 and sn<n>_<n> all computed (e.g. sn2_1-2, sn2_1, sn2_2)
-- needs: same n
-- domain: SELECT b.n FROM slownim AS b
--   JOIN slownim AS one ON one.stacks = b.stacks AND one.moves = [1] AND one.parts = b.parts
--   JOIN slownim AS all_ ON all_.stacks = b.stacks AND all_.moves = [b.stacks] AND all_.parts = b.parts
--   WHERE b.stacks % 2 = 0 AND b.moves = [1, b.stacks]
SELECT b.game, b.n, b.parts, b.sg, one.sg AS sg_one, all_.sg AS sg_all
FROM slownim AS b
JOIN slownim AS one ON one.stacks = b.stacks AND one.moves = [1] AND one.parts = b.parts
JOIN slownim AS all_ ON all_.stacks = b.stacks AND all_.moves = [b.stacks] AND all_.parts = b.parts
WHERE b.stacks % 2 = 0 AND b.moves = [1, b.stacks]
  AND (b.sg = 0) <> (one.sg = 0 AND all_.sg = 0)
ORDER BY b.game, b.n, b.parts
