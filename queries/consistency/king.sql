-- id: consistency.king
-- source: docs/definitions.md §2.2, §3, §4, §5 (the store checked against itself)
-- kind: consistency
-- statement: Every king record agrees with the records of its followers: sg and sg_misere are the
--   mex of the followers' (a terminal position has sg 0 and sg_misere 1), nodes = 1 + Σ nodes,
--   leaves = Σ leaves (1 at a terminal), height = 1 + max height (0 at a terminal), a count NULL
--   exactly when a follower's is NULL or the sum passes 2^63 − 1, states between 1 + max and
--   1 + Σ of the followers' states, and each CGH flag is its local condition at the record AND
--   the followers' flags.
-- covers: king; every record whose followers' n are in the store (nodes, leaves, height, sg,
--   sg_misere and the six flags exactly; states bounded)
-- needs: followers
-- domain: SELECT n FROM king
WITH recs AS (
    SELECT game, n, parts, conjugate, partition_key(parts) AS key, sg, sg_misere, nodes, leaves, states, height,
           domestic, tame, pet, miserable, forced, returnable
    FROM king
),
edges AS NOT MATERIALIZED (
    SELECT game, key, sg, sg_misere, unnest(board_follower_keys(key, parts, conjugate, moveset('king'))) AS fkey
    FROM recs
)
SELECT * FROM follower_check('recs', 'edges')
