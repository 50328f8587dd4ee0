-- id: chess.thm3_8
-- source: impartial-chess.txt, Theorem 3.8 (Berlekamp)
-- kind: theorem
-- statement: King on the rectangle R(r,c) = (c^r) has SG value 0 if r and c are odd, 2 if r and c
--   are even, 1 if r + c is odd and min(r,c) is odd, 3 if r + c is odd and min(r,c) is even.
-- covers: king; rectangles R(r,c), rows and columns included
-- needs: record
-- domain: SELECT n FROM king WHERE distinct_sizes = 1
SELECT 'king' AS game, n, parts, num_parts AS r, largest AS c, sg,
       CASE WHEN num_parts % 2 = 1 AND largest % 2 = 1 THEN 0
            WHEN num_parts % 2 = 0 AND largest % 2 = 0 THEN 2
            WHEN least(num_parts, largest) % 2 = 1 THEN 1
            ELSE 3 END AS expected
FROM king
WHERE distinct_sizes = 1
  AND sg <> CASE WHEN num_parts % 2 = 1 AND largest % 2 = 1 THEN 0
                 WHEN num_parts % 2 = 0 AND largest % 2 = 0 THEN 2
                 WHEN least(num_parts, largest) % 2 = 1 THEN 1
                 ELSE 3 END
