-- id: slownim.lemma2-7
-- source: slow-exact-k-nim.txt, Lemma 2.7
-- kind: lemma
-- statement: In SN(n, A), for any position p, r(p) = ctt(p, m) where m is the largest integer
--   0 <= m <= max(p) for which ctt(p, m) is reduced (NIRB for a = min A). Checked: the record's
--   reduced form (reduced_parts) is ctt(parts, m) for that m, found by trying every level, and the
--   record's odd_stacks and sum_mod are the number of odd stacks of r(p) and Σ(r(p)) mod 2a.
-- covers: every Slow SetNim game; every position
-- needs: record
-- domain: SELECT n FROM slownim
WITH lvl AS (
    SELECT game, n, parts, moves, reduced_parts, odd_stacks, sum_mod,
           list_max(list_filter(range(0, parts[1] + 1),
               lambda m: is_nim_reduced(list_transform(parts, lambda x: least(x, m)), moves[1])))
               AS level
    FROM slownim
), expect AS (
    SELECT *, list_filter(list_transform(parts, lambda x: least(x, level)), lambda x: x > 0)::SMALLINT[]
              AS chopped
    FROM lvl
)
SELECT game, n, parts, moves, level, chopped, reduced_parts, odd_stacks, sum_mod
FROM expect
WHERE reduced_parts IS DISTINCT FROM chopped
   OR odd_stacks IS DISTINCT FROM odd_stacks(chopped)
   OR sum_mod IS DISTINCT FROM coalesce(list_sum(chopped), 0) % (2 * moves[1])
ORDER BY game, n, parts
