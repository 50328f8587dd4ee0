-- id: slownim.section2-3-game-trees
-- source: slow-exact-k-nim.txt, Lemma 2.1 and Section 2.3 (Example 4, Figure 1)
-- kind: model
-- statement: Lemma 2.1: every sequence of moves that can be performed from p can be performed from
--   its reduction r(p), and vice versa; Section 2.3: "the game trees of positions with the same
--   reduction are isomorphic". Hence p and r(p) have the same Sprague-Grundy pair (normal and
--   misère), the same longest play (height) and, position by position, the same pairs, so the same
--   Conway-Gurvich-Ho flags (domestic, tame, pet, miserable, forced, returnable).
-- correction: Not a misprint of the paper (kind model, queries/FORMAT.md): its game trees label the stacks, so omitting the stack of
--   height 5 or the one of height 6 in (1,2,5,6) are different moves. docs/definitions.md §4 counts one edge per
--   distinct multiset, and chopping can make different stacks equal (and equal ones different), so
--   the counts nodes, leaves and states are not invariant under reduction: in SN(4,3), (2,1,1,1) has
--   two moves (nodes 3, leaves 2, states 3) while r(p) = (1,1,1,1) has one (2, 1, 2), and the
--   paper's (1,2,5,6) has nodes 13, leaves 6 against 10, 4 for (1,2,3,3). The corrected query checks
--   everything the labelled isomorphism still gives (sg, sg_misere, height and the six flags) on
--   every non-reduced record against the record of r(p) (or the terminal values sg 0, sg_misere 1,
--   height 0, all flags true when r(p) has no tokens); the printed form lists the non-reduced
--   records whose nodes, leaves or states differ from those of r(p) (NULL equals NULL).
-- covers: every Slow SetNim game; every non-reduced position
-- needs: followers
-- domain: SELECT n FROM slownim WHERE NOT reduced
SELECT p.game, p.n, p.parts, p.reduced_parts,
       p.sg, r.sg AS r_sg, p.sg_misere, r.sg_misere AS r_sg_misere, p.height, r.height AS r_height
FROM slownim AS p
LEFT JOIN slownim AS r ON r.game = p.game AND record_key(r.n, r.ordinal) = part_key(p.reduced_parts)
WHERE NOT p.reduced
  AND (p.sg IS DISTINCT FROM coalesce(r.sg, CASE WHEN len(p.reduced_parts) = 0 THEN 0 END)
       OR p.sg_misere IS DISTINCT FROM coalesce(r.sg_misere, CASE WHEN len(p.reduced_parts) = 0 THEN 1 END)
       OR p.height IS DISTINCT FROM coalesce(r.height, CASE WHEN len(p.reduced_parts) = 0 THEN 0 END)
       OR p.domestic IS DISTINCT FROM coalesce(r.domestic, CASE WHEN len(p.reduced_parts) = 0 THEN true END)
       OR p.tame IS DISTINCT FROM coalesce(r.tame, CASE WHEN len(p.reduced_parts) = 0 THEN true END)
       OR p.pet IS DISTINCT FROM coalesce(r.pet, CASE WHEN len(p.reduced_parts) = 0 THEN true END)
       OR p.miserable IS DISTINCT FROM coalesce(r.miserable, CASE WHEN len(p.reduced_parts) = 0 THEN true END)
       OR p.forced IS DISTINCT FROM coalesce(r.forced, CASE WHEN len(p.reduced_parts) = 0 THEN true END)
       OR p.returnable IS DISTINCT FROM
          coalesce(r.returnable, CASE WHEN len(p.reduced_parts) = 0 THEN true END))
ORDER BY p.game, p.n, p.parts
-- printed form:
SELECT p.game, p.n, p.parts, p.reduced_parts,
       p.nodes, r.nodes AS r_nodes, p.leaves, r.leaves AS r_leaves, p.states, r.states AS r_states
FROM slownim AS p
JOIN slownim AS r ON r.game = p.game AND record_key(r.n, r.ordinal) = part_key(p.reduced_parts)
WHERE NOT p.reduced
  AND (p.nodes IS DISTINCT FROM r.nodes OR p.leaves IS DISTINCT FROM r.leaves
       OR p.states IS DISTINCT FROM r.states)
ORDER BY p.game, p.n, p.parts
