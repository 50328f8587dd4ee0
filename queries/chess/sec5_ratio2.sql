-- id: chess.sec5_ratio2
-- source: impartial-chess.txt, Section 5 (on Lemma 3.22)
-- kind: observation
-- statement: The coefficient 2 of Lemma 3.22 is attained: (3^2) and (9^2, 7^3) are P-positions of
--   Queen with λ1 − 1 = 2(r − 1).
-- covers: queen; the partitions (3,3) and (9,9,7,7,7)
-- needs: record
-- domain: SELECT n FROM queen WHERE parts IN ([3, 3]::SMALLINT[], [9, 9, 7, 7, 7]::SMALLINT[])
SELECT 'queen' AS game, n, parts, sg, largest - 1 AS a, 2 * (num_parts - 1) AS b
FROM queen
WHERE parts IN ([3, 3]::SMALLINT[], [9, 9, 7, 7, 7]::SMALLINT[])
  AND (sg <> 0 OR largest - 1 <> 2 * (num_parts - 1))
