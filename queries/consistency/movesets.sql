-- id: consistency.movesets
-- source: docs/definitions.md §2.2, §3, §4, §5 (the store checked against itself)
-- kind: consistency
-- statement: Every record of a user moveset game (game id moves_…) agrees with the records of its
--   followers, as consistency.king states for the King: sg and sg_misere the mex of the
--   followers', nodes = 1 + Σ, leaves = Σ (1 at a terminal), height = 1 + max, states between
--   1 + max and 1 + Σ, each CGH flag its local condition AND the followers' flags.
-- covers: every user moveset in the store (its moves read from its id); every record whose
--   followers' n are in the store
-- needs: followers
-- domain: SELECT n FROM records WHERE starts_with(game, 'moves_') AND verify_subject(n)
WITH mv AS NOT MATERIALIZED (
    SELECT * FROM records WHERE starts_with(game, 'moves_')
)
SELECT * FROM board_consistency('mv')
