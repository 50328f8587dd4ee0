
--   The Durfee length of ν = μ[1,1] is that of μ less one.
-- needs: followers
-- games: lctr
-- show: sg, d_parts, d_sg, durfee
-- where: durfee >= 2
-- assert: NOT ((d_sg = 0 AND (sg <> 0 OR durfee - 1 < 1))
--   OR (d_sg = 1 AND durfee - 1 >= 2 AND sg <> 1)
--   OR (d_sg = 2 AND durfee - 1 >= 3 AND sg <> 2))
