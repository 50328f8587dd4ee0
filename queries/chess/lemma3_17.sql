-- id: chess.lemma3_17
-- source: impartial-chess.txt, Lemma 3.17
-- kind: lemma
-- statement: Let λ = (λ1, …, λr) ≠ (1). Then λ ∈ P_Rook iff λ has rank 0, λ1 = λ2, λr ≥ 2 and
--   λ[1,1] is ample: every row and every column of λ[1,1] contains a cell (i,j) with
--   λ[1,1][i,j] ∈ P_Rook. Ampleness is read cell by cell from the Rook records of the
--   sub-partitions λ[1+i, 1+j]; it is only computed where the other three conditions hold.
-- covers: rook; every partition except (1)
-- domain: SELECT n FROM rook WHERE n > 1
WITH cand AS (
    SELECT n, parts, sg,
           list_filter(list_transform(parts[2:], lambda x: x - 1), lambda x: x > 0)::SMALLINT[] AS mu
    FROM rook
    WHERE n > 1 AND rank = 0 AND len(parts) >= 2 AND parts[1] = parts[2] AND parts[-1] >= 2
),
cells AS (
    SELECT *, list_filter(list_transform(mu[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(mu[i + 1])) AS j FROM (SELECT *, unnest(range(len(mu))) AS i FROM cand))
),
ample AS (
    SELECT cells.parts,
           count(DISTINCT CASE WHEN s.sg = 0 THEN cells.i END) = len(any_value(cells.mu))
           AND count(DISTINCT CASE WHEN s.sg = 0 THEN cells.j END) = any_value(cells.mu)[1] AS is_ample
    FROM cells
    JOIN rook AS s ON record_key(s.n, s.ordinal) = part_key(cells.sub)
    GROUP BY cells.parts
)
SELECT 'rook' AS game, r.n, r.parts, r.sg, coalesce(a.is_ample, false) AS conditions_hold
FROM rook AS r
LEFT JOIN ample AS a ON a.parts = r.parts
WHERE r.n > 1 AND (r.sg = 0) <> coalesce(a.is_ample, false)
