-- id: slownim.corollary2-5
-- source: slow-exact-k-nim.txt, Corollary 2.5 (with Proposition 2.4)
-- kind: corollary
-- statement: If p and q have the same reduction, r(p) = r(q), then p and q are in the same outcome
--   class. Checked on every group of records of one game with the same reduced form: all P or all N.
--   A position whose reduction has no tokens has the outcome of the terminal position: P.
-- covers: every Slow SetNim game; every position
-- needs: record
-- domain: SELECT n FROM slownim
SELECT game, reduced_parts,
       list(parts ORDER BY n, parts) FILTER (WHERE sg = 0) AS p_positions,
       list(parts ORDER BY n, parts) FILTER (WHERE sg <> 0) AS n_positions
FROM slownim
GROUP BY game, reduced_parts
HAVING count(DISTINCT sg = 0) > 1 OR (len(reduced_parts) = 0 AND bool_or(sg <> 0))
ORDER BY game, reduced_parts
