-- id: consistency.slownim
-- source: docs/definitions.md §2.3, §3, §4, §5 (the store checked against itself)
-- kind: consistency
-- statement: Every Slow SetNim record agrees with the records of its followers (one per distinct
--   multiset reached by taking a token from ℓ ∈ A nonempty stacks): sg and sg_misere are the mex
--   of the followers' (a terminal position, fewer than min A nonempty stacks, has sg 0 and
--   sg_misere 1), nodes = 1 + Σ nodes, leaves = Σ leaves (1 at a terminal), height = 1 + max
--   height, a count NULL exactly when a follower's is NULL or the sum passes 2^63 − 1, states
--   between 1 + max and 1 + Σ of the followers' states, and each CGH flag is its local condition
--   AND the followers' flags.
-- covers: every Slow SetNim game; every record whose followers' N are in the store (the columns
--   of docs/definitions.md §3-5; reduced, reduced_parts, odd_stacks and sum_mod are the reduction's, checked by
--   the slownim.* statements)
-- needs: followers
-- domain: SELECT n FROM slownim WHERE verify_subject(n)
WITH recs AS (
    SELECT *, record_key(n, ordinal) AS key FROM slownim
),
subj AS MATERIALIZED (
    SELECT game, key, sg, sg_misere, unnest(part_keys(sn_followers(parts, moves))) AS fkey
    FROM recs WHERE verify_subject(n)
),
edges AS MATERIALIZED (
    SELECT * FROM subj
    UNION ALL
    SELECT game, key, sg, sg_misere, unnest(part_keys(sn_followers(parts, moves))) AS fkey
    FROM recs
    WHERE NOT verify_subject(n) AND (game, key) IN (
        SELECT (game, fkey) FROM subj WHERE (sg = 0 AND sg_misere = 1) OR (sg = 1 AND sg_misere = 0))
)
SELECT * FROM follower_check('recs', 'edges')
