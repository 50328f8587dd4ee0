-- id: chess.sec3_2_knight_class
-- source: impartial-chess.txt, Section 3.2, text after Observation 3.2, and Figure 4
-- kind: observation
-- statement: Partition-equivalent (equal DAG) and game-equivalent Knight games have the same game.
--   (a) The Knight class of (3,3,2) is {λ : λ[1,2] ≠ (), λ[2,1] ≠ (), λ[2,4] = λ[3,3] = λ[4,2] = ()},
--   i.e. λ2 ≥ 3, λ3 ≥ 2, λ3 ≤ 4, λ4 ≤ 3, λ5 ≤ 2: every such λ has the Knight record of (3,3,2)
--   (among them (4,3,3), Figure 4(b)). (b) (2,2,2) and (3,3) are game-equivalent in Knight
--   (Figure 4(a)). Compared: sg, sg_misere, nodes, leaves, height and the six CGH flags.
-- covers: knight; the Knight class of (3,3,2); the pair (2,2,2), (3,3)
-- needs: record
-- domain: SELECT n FROM knight WHERE coalesce(parts[2], 0) >= 3 AND coalesce(parts[3], 0) BETWEEN 2 AND 4
--   AND coalesce(parts[4], 0) <= 3 AND coalesce(parts[5], 0) <= 2
--   UNION ALL SELECT n FROM knight WHERE parts = [2, 2, 2]::SMALLINT[] AND (SELECT count(*) FROM knight WHERE parts = [3, 3]::SMALLINT[]) = 1
WITH v AS (
    SELECT n, parts, row(sg, sg_misere, nodes, leaves, height, domestic, tame, pet, miserable, forced, returnable) AS v
    FROM knight
)
SELECT 'knight' AS game, a.n, a.parts, a.v AS record, b.parts AS representative, b.v AS representative_record
FROM v AS a, v AS b
WHERE b.parts = [3, 3, 2]::SMALLINT[]
  AND coalesce(a.parts[2], 0) >= 3 AND coalesce(a.parts[3], 0) BETWEEN 2 AND 4
  AND coalesce(a.parts[4], 0) <= 3 AND coalesce(a.parts[5], 0) <= 2
  AND a.v IS DISTINCT FROM b.v
UNION ALL
SELECT 'knight', a.n, a.parts, a.v, b.parts, b.v
FROM v AS a, v AS b
WHERE a.parts = [2, 2, 2]::SMALLINT[] AND b.parts = [3, 3]::SMALLINT[] AND a.v IS DISTINCT FROM b.v
