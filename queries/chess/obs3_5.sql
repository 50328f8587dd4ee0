-- id: chess.obs3_5
-- source: impartial-chess.txt, Observation 3.5 (from Observation 3.2)
-- kind: observation
-- statement: For every moveset M and λ ≤ β in Young's lattice, lp(DAG_M(λ)) ≤ lp(DAG_M(β)): the
--   longest play (height) is monotone. Checked on every covering pair: β a record, λ = β with one
--   corner cell removed (transitivity gives every pair λ ≤ β). There are about five covering pairs
--   per record, so to keep the check cheap it examines the records β with n ≤ 40.
-- covers: downright, pawn, pawn_t, knight, bishop, king, rook, queen; partitions with 2 ≤ n ≤ 40
-- needs: followers
-- domain: SELECT n FROM downright WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM pawn WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM pawn_t WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM knight WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM bishop WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM king WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM rook WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
--   UNION ALL SELECT n FROM queen WHERE n BETWEEN 2 AND 40 AND verify_subject(n)
WITH pairs AS (
    SELECT 'downright' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM downright WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN downright AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
    UNION ALL
    SELECT 'pawn' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM pawn WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN pawn AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
    UNION ALL
    SELECT 'pawn_t' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM pawn_t WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN pawn_t AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
    UNION ALL
    SELECT 'knight' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM knight WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN knight AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
    UNION ALL
    SELECT 'bishop' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM bishop WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN bishop AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
    UNION ALL
    SELECT 'king' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM king WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN king AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
    UNION ALL
    SELECT 'rook' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM rook WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN rook AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
    UNION ALL
    SELECT 'queen' AS game, c.n, c.parts, c.height, s.parts AS smaller, s.height AS smaller_height
    FROM (
        SELECT n, parts, height,
               list_filter(list_transform(parts, lambda x, k: CASE WHEN k = i THEN x - 1 ELSE x END),
                           lambda x: x > 0)::SMALLINT[] AS smaller
        FROM (SELECT n, parts, height, unnest(range(1, len(parts) + 1)) AS i FROM queen WHERE n BETWEEN 2 AND 40 AND verify_subject(n))
        WHERE i = len(parts) OR parts[i] > parts[i + 1]
    ) AS c
    JOIN queen AS s ON record_key(s.n, s.ordinal) = part_key(c.smaller)
)
SELECT * FROM pairs WHERE smaller_height > height
