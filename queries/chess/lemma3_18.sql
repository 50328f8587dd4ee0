-- id: chess.lemma3_18
-- source: impartial-chess.txt, Lemma 3.18
-- kind: lemma
-- statement: A partition λ = (λ1, …, λr) is ample (every row and every column of λ contains a cell
--   (i,j) with λ[i,j] ∈ P_Rook) iff λ has rank 0 and λ ≥ S(r), i.e. λ1 = r and λ_m ≥ r − m + 1 for
--   all m. Ampleness is read cell by cell from the Rook records of all sub-partitions λ[i,j]. Checked
--   on the records of rank 0: for rank ≠ 0 non-ampleness is the pigeonhole step of the proof (a row
--   or column holds at most one P, since a Rook can move to any cell further along it), and reading
--   every cell of every record would cost about n joins per record.
-- covers: rook; partitions of rank 0
-- domain: SELECT n FROM rook WHERE rank = 0
WITH gi AS (SELECT n, parts, unnest(range(len(parts))) AS i FROM rook WHERE rank = 0),
cells AS (
    SELECT n, parts, i, j,
           list_filter(list_transform(parts[i + 1:], lambda x: x - j), lambda x: x > 0)::SMALLINT[] AS sub
    FROM (SELECT *, unnest(range(parts[i + 1])) AS j FROM gi)
),
ample AS (
    SELECT cells.n, cells.parts,
           count(DISTINCT CASE WHEN s.sg = 0 THEN cells.i END) = len(cells.parts)
           AND count(DISTINCT CASE WHEN s.sg = 0 THEN cells.j END) = cells.parts[1] AS is_ample
    FROM cells
    JOIN rook AS s ON record_key(s.n, s.ordinal) = part_key(cells.sub)
    GROUP BY cells.n, cells.parts
)
SELECT 'rook' AS game, a.n, a.parts, a.is_ample
FROM ample AS a
WHERE a.is_ample <> (len(a.parts) = a.parts[1] AND list_bool_and(
          list_transform(a.parts, lambda x, m: x >= len(a.parts) - m + 1)))
