-- id: chess.sec4_1_trunc
-- source: impartial-chess.txt, Section 4.1, text after Corollary 4.5
-- kind: erratum
-- statement: Let μ = trunc_Knight(λ). If λ2 > 2 or λ3 > 1 then μ < λ⁻ (strictly, in Young's lattice)
--   since more terminal positions are removed. Let μ̄ = trunc_Pawn(λ): if r > 1 then μ̄ ≤ λ⁻, and
--   the inequality is strict if λ has a repeated part. Truncations as in chess.thm4_4 (Definition 4.1).
--   A statement about partitions only (no game values), so it is checked on the records with n ≤ 30.
-- correction: Not in docs/definitions.md §8 (found by this catalogue). The paragraph's Pawn is the transposed pawn
--   (its "terminal iff r = 1" holds for pawn_t only, docs/definitions.md §8.4), but for pawn_t the strictness
--   condition is wrong: trunc_pawn_t(λ) = (λ2, …, λr) equals λ⁻ exactly when λ' has distinct parts,
--   e.g. λ = (1,1) or (3,3,2,1,1). Corrected: for pawn_t (r > 1) μ̄ ≤ λ⁻, strict iff λ' has a
--   repeated part; the printed condition (λ has a repeated part) is right for the Pawn of
--   Definition 3.1 (our pawn, trunc = λ[0,1]) on its non-terminal records (λ1 > 1, r > 1). The
--   corrected query checks Knight, pawn_t with "iff λ' has a repeated part" and pawn with "if λ has
--   a repeated part"; the printed form checks pawn_t with "if λ has a repeated part".
-- covers: knight, pawn, pawn_t; non-terminal partitions meeting the hypotheses, n ≤ 30
-- needs: record
-- domain: SELECT n FROM knight WHERE n <= 30 AND (coalesce(parts[2], 0) > 2 OR coalesce(parts[3], 0) > 1)
--   UNION ALL SELECT n FROM pawn_t WHERE n <= 30 AND num_parts > 1
--   UNION ALL SELECT n FROM pawn WHERE n <= 30 AND num_parts > 1 AND height > 0
WITH t AS (
    SELECT 'knight' AS game, n, parts,
           list_transform(parts, lambda x, p: greatest(coalesce(parts[p + 1], 0) - 2, coalesce(parts[p + 2], 0) - 1)) AS rows_,
           true AS strict, false AS iff
    FROM knight WHERE n <= 30 AND (coalesce(parts[2], 0) > 2 OR coalesce(parts[3], 0) > 1)
    UNION ALL
    SELECT 'pawn_t', n, parts, list_transform(parts, lambda x, p: coalesce(parts[p + 1], 0)),
           len(list_distinct(conjugate)) < len(conjugate), true
    FROM pawn_t WHERE n <= 30 AND num_parts > 1
    UNION ALL
    SELECT 'pawn', n, parts, list_transform(parts, lambda x, p: x - 1), distinct_sizes < num_parts, false
    FROM pawn WHERE n <= 30 AND num_parts > 1 AND height > 0
),
c AS (
    SELECT game, n, parts, strict, iff, list_filter(rows_, lambda x: x > 0) AS trunc,
           list_filter(list_transform(parts, lambda x, p: CASE WHEN p = len(parts) OR x > parts[p + 1]
                                                              THEN x - 1 ELSE x END), lambda x: x > 0) AS minus
    FROM t
)
SELECT game, n, parts, trunc, minus AS corners_removed, strict AS strict_claimed
FROM c
WHERE len(trunc) > len(minus)
   OR NOT list_bool_and(list_transform(trunc, lambda x, p: x <= minus[p]))
   OR (strict AND trunc = minus)
   OR (iff AND NOT strict AND trunc <> minus)
-- printed form:
WITH c AS (
    SELECT n, parts, distinct_sizes < num_parts AS strict,
           list_filter(list_transform(parts, lambda x, p: coalesce(parts[p + 1], 0)), lambda x: x > 0) AS trunc,
           list_filter(list_transform(parts, lambda x, p: CASE WHEN p = len(parts) OR x > parts[p + 1]
                                                              THEN x - 1 ELSE x END), lambda x: x > 0) AS minus
    FROM pawn_t WHERE n <= 30 AND num_parts > 1
)
SELECT 'pawn_t' AS game, n, parts, trunc, minus AS corners_removed, strict AS strict_claimed
FROM c
WHERE len(trunc) > len(minus)
   OR NOT list_bool_and(list_transform(trunc, lambda x, p: x <= minus[p]))
   OR (strict AND trunc = minus)
