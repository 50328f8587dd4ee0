-- description: King on generalized staircases G(k;r,c) = ((kc)^r, ((k−1)c)^r, …, c^r)
--  (gen_staircase(parts) = {k, r, c}; k = 1 are the rectangles, r = c = 1 the staircases S(k)):
--  sg and sg_misere per (k, r, c), against the conjectures of impartial-chess.txt, Section 5.
--  Conjecture 5.1 (r = c odd): sg = 0 if k mod (r+2) is odd, 1 if it is even and not 0, 2 if it
--  is 0. Conjecture 5.2 (r ≠ c, both even): sg = 2 for odd k, 3 for even k. conjecture names the
--  one that applies (NULL: neither), predicted_sg its value, agrees = (sg = predicted_sg).
WITH g AS (
    SELECT n, parts, sg, sg_misere, gen_staircase(parts) AS gs
    FROM king
    WHERE is_gen_staircase(parts)
),
p AS (
    SELECT n, parts, sg, sg_misere, gs.k AS k, gs.r AS r, gs.c AS c,
        CASE WHEN gs.r = gs.c AND gs.r % 2 = 1 THEN '5.1'
             WHEN gs.r <> gs.c AND gs.r % 2 = 0 AND gs.c % 2 = 0 THEN '5.2' END AS conjecture
    FROM g
)
SELECT
    k, r, c, n, parts, sg, sg_misere,
    conjecture,
    CASE conjecture
        WHEN '5.1' THEN CASE WHEN k % (r + 2) = 0 THEN 2 WHEN k % (r + 2) % 2 = 1 THEN 0 ELSE 1 END
        WHEN '5.2' THEN CASE WHEN k % 2 = 1 THEN 2 ELSE 3 END
    END AS predicted_sg,
    sg = predicted_sg AS agrees
FROM p
ORDER BY conjecture NULLS LAST, r, c, k
