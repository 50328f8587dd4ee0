-- partgames DuckDB macros (SPEC §1, §2.3). Executed on every connection: pure SQL, idempotent.
--
-- Conventions
--   * A partition is a list of integers, non-increasing, nonzero parts. [] is the partition of 0.
--   * Row/column arguments i, j are 0-based as in SPEC §1 (row 0 is the top row).
--   * DuckDB lists are 1-based: parts[1] is the largest part λ1, parts[i + 1] is row i, parts[-1]
--     is the smallest part, parts[i + 1:] drops the top i rows. An index past the end gives NULL,
--     a slice past the end gives []. Two-argument lambdas (lambda x, ix: ...) get a 1-based ix.
--   * Macros returning a partition cast it to SMALLINT[], the type of the `parts` column, so
--     results compare and join directly with `parts` / `conjugate`.
--   * Lambda syntax is the DuckDB >= 1.3 form `lambda x: ...` (the old `x -> ...` is deprecated
--     and rejected by default in DuckDB 2.0).
--   * Comments contain no semicolons, so the file may be split on them naively.

-- int_sqrt(x) = floor(sqrt(x)) exactly, for an integer 0 <= x < 2^63 (helper for wythoff_p).
-- The double estimate is off by at most one there and is corrected with exact HUGEINT checks.
-- Example: int_sqrt(24) = 4, int_sqrt(25) = 5.
CREATE OR REPLACE MACRO int_sqrt(x) AS
    list_transform([floor(sqrt(x::DOUBLE))::HUGEINT],
        lambda m_: m_ - (m_ * m_ > x)::INTEGER + ((m_ + 1) * (m_ + 1) <= x)::INTEGER)[1];

-- subpartition(parts, i, j) = λ[i,j] = (λ_{i+1} − j, λ_{i+2} − j, …) keeping the positive entries:
-- what lies weakly below and right of cell (i, j), 0-based. [] when cell (i, j) does not exist
-- (i >= number of parts, j >= λ_{i+1}, or a negative index).
-- Example: subpartition([5,3,3,2,1,1], 1, 1) = [2,2,1], subpartition([2,1], 1, 1) = [].
CREATE OR REPLACE MACRO subpartition(parts, i, j) AS
    CASE WHEN i >= 0 AND j >= 0 AND i < len(parts) AND j < parts[i + 1]
         THEN list_filter(list_transform(parts[i + 1:], lambda x_: x_ - j), lambda x_: x_ > 0)
         ELSE [] END::SMALLINT[];

-- conjugate(parts) = λ' = the column lengths: λ'_k = #{ i : λ_i >= k } for k = 1 .. λ1.
-- Example: conjugate([4,2,1]) = [3,2,1,1], conjugate([]) = [].
CREATE OR REPLACE MACRO conjugate(parts) AS
    list_transform(range(1, coalesce(parts[1], 0) + 1),
        lambda k_: len(list_filter(parts, lambda x_: x_ >= k_)))::SMALLINT[];

-- is_row(parts): a single row (n), n >= 1.  Example: is_row([4]) = true, is_row([]) = false.
CREATE OR REPLACE MACRO is_row(parts) AS len(parts) = 1;

-- is_column(parts): a single column (1^r), r >= 1.  Example: is_column([1,1,1]) = true.
-- (1) is both a row and a column.
CREATE OR REPLACE MACRO is_column(parts) AS len(parts) >= 1 AND parts[1] = 1;

-- is_rectangle(parts): R(r,c) = (c^r), all parts equal, nonempty (rows and columns included).
-- Example: is_rectangle([3,3]) = true, is_rectangle([3,2]) = false, is_rectangle([]) = false.
CREATE OR REPLACE MACRO is_rectangle(parts) AS len(parts) >= 1 AND parts[1] = parts[-1];

-- rect_rows(parts) = r for a rectangle R(r,c) = (c^r), NULL otherwise.  Example: rect_rows([3,3]) = 2.
CREATE OR REPLACE MACRO rect_rows(parts) AS
    CASE WHEN is_rectangle(parts) THEN len(parts)::INTEGER END;

-- rect_cols(parts) = c for a rectangle R(r,c) = (c^r), NULL otherwise.  Example: rect_cols([3,3]) = 3.
CREATE OR REPLACE MACRO rect_cols(parts) AS
    CASE WHEN is_rectangle(parts) THEN parts[1]::INTEGER END;

-- is_staircase(parts): S(k) = (k, k−1, …, 1), k >= 1.
-- Example: is_staircase([3,2,1]) = true, is_staircase([1]) = true, is_staircase([3,2]) = false.
CREATE OR REPLACE MACRO is_staircase(parts) AS
    len(parts) >= 1 AND parts = range(len(parts), 0, -1);

-- is_hook(parts): gamma / hook H(r,c) = (c, 1^{r−1}), r, c >= 1 - every part after the first is 1.
-- Rows (r = 1) and columns (c = 1) count as hooks.
-- Example: is_hook([4,1,1]) = true, is_hook([4]) = true, is_hook([2,2]) = false.
CREATE OR REPLACE MACRO is_hook(parts) AS len(parts) >= 1 AND coalesce(parts[2], 1) = 1;

-- is_proper_hook(parts): a hook (c, 1^{r−1}) with r >= 2 and c >= 2 (neither a row nor a column).
-- Example: is_proper_hook([2,1]) = true, is_proper_hook([1,1]) = false.
CREATE OR REPLACE MACRO is_proper_hook(parts) AS
    len(parts) >= 2 AND parts[1] >= 2 AND parts[2] = 1;

-- corners(parts) = number of corners (cells (i,j) with λ[i,j] = (1)) = number of distinct part sizes.
-- Example: corners([5,3,3,2,1,1]) = 4, corners([]) = 0.
CREATE OR REPLACE MACRO corners(parts) AS len(list_distinct(parts))::INTEGER;

-- remove_corners(parts) = λ⁻: every corner cell removed, i.e. the last row of each block of equal
-- parts loses one cell, zeros dropped.
-- Example: remove_corners([5,3,3,2,1,1]) = [4,3,2,1,1], remove_corners([3,3]) = [3,2],
-- remove_corners([1]) = [].
CREATE OR REPLACE MACRO remove_corners(parts) AS
    list_filter(
        list_transform(parts,
            lambda x_, ix_: x_ - CASE WHEN ix_ = len(parts) OR parts[ix_ + 1] < x_ THEN 1 ELSE 0 END),
        lambda x_: x_ > 0)::SMALLINT[];

-- is_distinct_parts(parts): all parts different (strict partition). true for [].
-- Example: is_distinct_parts([4,2,1]) = true, is_distinct_parts([2,2]) = false.
CREATE OR REPLACE MACRO is_distinct_parts(parts) AS len(list_distinct(parts)) = len(parts);

-- blocks(parts) = the distinct part sizes, largest first, with their multiplicities:
-- a list of STRUCT(size, mult), λ = (size_1^mult_1, size_2^mult_2, …).
-- Example: blocks([5,3,3,1]) = [{size: 5, mult: 1}, {size: 3, mult: 2}, {size: 1, mult: 1}],
-- blocks([]) = []. Index it 1-based: blocks(parts)[1].size = λ1.
CREATE OR REPLACE MACRO blocks(parts) AS
    list_transform(
        list_filter(parts, lambda x_, ix_: ix_ = 1 OR parts[ix_ - 1] <> x_),
        lambda x_: {'size': x_::INTEGER, 'mult': len(list_filter(parts, lambda y_: y_ = x_))::INTEGER});

-- gen_staircase(parts) = STRUCT(k, r, c) when λ is the generalized staircase
-- G(k,r,c) = ((kc)^r, ((k−1)c)^r, …, c^r), k, r, c >= 1, else NULL. (SPEC writes a semicolon
-- after k - this file keeps semicolons out of comments.)
-- The representation is read off the block structure: k = number of distinct part sizes,
-- r = the common multiplicity, c = the smallest part = the common step. So G(1,r,c) = R(r,c)
-- (every rectangle is G(1,r,c)), G(k,1,1) = S(k), and position t (0-based) holds (k − t // r)·c.
-- Example: gen_staircase([4,4,2,2]) = {k: 2, r: 2, c: 2}, gen_staircase([3,3]) = {k: 1, r: 2, c: 3},
-- gen_staircase([3,2,1]) = {k: 3, r: 1, c: 1}, gen_staircase([3,1]) = NULL, gen_staircase([]) = NULL.
CREATE OR REPLACE MACRO gen_staircase(parts) AS
    CASE WHEN len(parts) >= 1
              AND len(parts) % len(list_distinct(parts)) = 0
              AND parts = list_transform(range(len(parts)),
                      lambda t_: (len(list_distinct(parts)) - t_ // (len(parts) // len(list_distinct(parts))))
                                 * parts[-1])
         THEN {'k': len(list_distinct(parts))::INTEGER,
               'r': (len(parts) // len(list_distinct(parts)))::INTEGER,
               'c': parts[-1]::INTEGER}
    END;

-- is_gen_staircase(parts): λ = G(k,r,c) for some k, r, c >= 1 (includes rectangles and staircases).
-- Example: is_gen_staircase([6,6,3,3]) = true, is_gen_staircase([4,2,1]) = false.
CREATE OR REPLACE MACRO is_gen_staircase(parts) AS coalesce(gen_staircase(parts) IS NOT NULL, false);

-- is_quadrated(parts): "A partition is said to be quadrated if all of its parts are even and each
-- part occurs an even number of times" - lctr-some-results.txt, §3.1.2 "Quadrated partitions"
-- (Theorem there: quadrated partitions are LCTR P-positions). The definition is not in
-- lctr-sg-complexity.txt. Taken literally, [] is quadrated (vacuously) - add len(parts) > 0 to
-- exclude it.
-- Example: is_quadrated([12,12,10,10,6,6,6,6]) = true (the paper's Figure 8),
-- is_quadrated([2,2,2]) = false, is_quadrated([3,3]) = false.
CREATE OR REPLACE MACRO is_quadrated(parts) AS
    len(list_filter(parts,
        lambda x_: x_ % 2 <> 0 OR len(list_filter(parts, lambda y_: y_ = x_)) % 2 <> 0)) = 0;

-- is_thick_gamma(parts): λ = (n^m, r^s) with n > r > 0, m, s >= 1, i.e. exactly two distinct part
-- sizes (LCTR paper 1, Lemma 16 / Theorem 17 family). Proper hooks (c, 1^{r−1}) are included
-- (n = c, m = 1, r = 1, s = r − 1). Use blocks(parts) for n, m, r, s:
-- blocks(parts)[1].size = n, [1].mult = m, [2].size = r, [2].mult = s.
-- Example: is_thick_gamma([5,5,2]) = true, is_thick_gamma([3,3]) = false, is_thick_gamma([3,2,1]) = false.
CREATE OR REPLACE MACRO is_thick_gamma(parts) AS len(list_distinct(parts)) = 2;

-- young_le(a, b): the Young diagram of a is contained in that of b, i.e. len(a) <= len(b) and
-- a_i <= b_i for every i (containment order, not dominance).
-- Example: young_le([2,1], [3,1,1]) = true, young_le([2,2], [3,1,1]) = false, young_le([], b) = true.
CREATE OR REPLACE MACRO young_le(a, b) AS
    len(a) <= len(b) AND NOT list_contains(list_transform(a, lambda x_, ix_: x_ <= b[ix_]), false);

-- is_nim_reduced(parts, a): the Slow SetNim NIRB condition (SPEC §2.3) with a = min A:
-- a · max <= Σ. Stacks may be in any order, zeros allowed. [] (all stacks empty) is reduced.
-- Example: is_nim_reduced([3,1,1], 2) = false, is_nim_reduced([2,1,1], 2) = true.
CREATE OR REPLACE MACRO is_nim_reduced(parts, a) AS
    a::BIGINT * coalesce(list_max(parts), 0) <= coalesce(list_sum(parts), 0);

-- nim_reduce(parts, a) = r(p), the Slow SetNim reduced form (SPEC §2.3, slow-exact-k-nim.txt
-- Lemma 2.7 and Algorithm 1), with a = min A (for a record: nim_reduce(parts, moves[1]), since
-- `moves` is sorted). r(p) = ctt(p, h): every stack higher than h is chopped to h, where h is the
-- largest level in [0, max p] with a·h <= Σ min(p_i, h) (ctt(p, h) satisfies NIRB).
-- Closed form: with p sorted non-increasing and S_k = p_{k+1} + p_{k+2} + … (all but the k
-- largest), Σ min(p_i, h) = min over k of (k·h + S_k), so a·h <= Σ min(p_i, h) iff
-- h <= S_k / (a − k) for every k < a, hence h = min(max p, min_{0<=k<a} floor(S_k / (a − k))).
-- k = 0 gives h <= floor(Σ/a), the first NIRB value of Algorithm 1. No chopping (h = max p)
-- exactly when p is already reduced. With fewer than a nonempty stacks h = 0 and the result is [].
-- Tested against Algorithm 1 (iterate x = ctt(x, floor(Σx / a)) while max x > floor(Σx / a)).
-- Returns the nonzero parts, non-increasing (input may be in any order and contain zeros).
-- Example: nim_reduce([170,155,112,79,52,33,20,12], 5) = [98,98,98,79,52,33,20,12] (paper's
-- Example 5), nim_reduce([5,1,1], 2) = [2,1,1], nim_reduce([3,1], 3) = [].
CREATE OR REPLACE MACRO nim_reduce(parts, a) AS
    list_transform([list_reverse_sort(list_filter(parts, lambda x_: x_ > 0))],
        lambda q_: list_transform(
            [least(coalesce(q_[1], 0),
                   list_min(list_transform(range(0, a),
                       lambda k_: coalesce(list_sum(q_[k_ + 1:]::BIGINT[]), 0) // (a - k_))))],
            lambda h_: list_filter(list_transform(q_, lambda x_: least(x_, h_)), lambda x_: x_ > 0)
        )[1]
    )[1]::SMALLINT[];

-- odd_stacks(parts) = number of odd parts (odd stacks), the `o` of the Slow k-Nim theorems
-- (apply to nim_reduce(parts, a) for the reduced position).  Example: odd_stacks([5,4,3,3]) = 3.
CREATE OR REPLACE MACRO odd_stacks(parts) AS len(list_filter(parts, lambda x_: x_ % 2 <> 0))::INTEGER;

-- nim_sum(xs) = xs_1 xor xs_2 xor … (0 for []). DuckDB has xor(a, b) for two integers, the
-- bit_xor(x) aggregate and list_bit_xor(list), which returns NULL for [] - hence this wrapper.
-- Example: nim_sum([1,2,3]) = 0, nim_sum([5,3]) = 6, nim_sum([]) = 0.
CREATE OR REPLACE MACRO nim_sum(xs) AS coalesce(list_bit_xor(xs), 0);

-- wythoff_p(a, b): (a, b) is a P-position of Wythoff's game (order irrelevant, a, b >= 0):
-- with lo = min, hi = max, d = hi − lo, P iff lo = floor(d·φ), φ = (1 + √5)/2.
-- Exact integer arithmetic, no floating φ: d·√5 is irrational for d > 0, so
-- floor(d·φ) = floor((d + d√5)/2) = (d + int_sqrt(5·d²)) // 2 - exact for d < 1.3·10^9
-- (5·d² < 2^63), far beyond any game record.
-- Example: wythoff_p(0, 0), wythoff_p(1, 2), wythoff_p(5, 3), wythoff_p(4, 7) are true,
-- wythoff_p(2, 2) and wythoff_p(1, 3) are false.
CREATE OR REPLACE MACRO wythoff_p(a, b) AS
    least(a, b) = ((greatest(a, b) - least(a, b))::HUGEINT
                   + int_sqrt(5 * (greatest(a, b) - least(a, b))::HUGEINT
                                * (greatest(a, b) - least(a, b))::HUGEINT)) // 2;

-- is_gen_staircase_sub(parts, conj): λ is a sub-partition G(k,r,c)[i,j] of a generalized
-- staircase (impartial-chess.txt, Table 1's column G). Recognised as: the distinct parts form an
-- arithmetic progression whose difference d is at least the smallest part, and every block of
-- equal parts but the first has the same size m, the first at most m (checked against a
-- brute-force enumeration of the G(k,r,c)[i,j] up to n = 30). conj is λ's conjugate (pass the
-- record's conjugate column). Rectangles and staircases are included.
-- Example: is_gen_staircase_sub([4,4,2,2], [4,4,2,2]) = true (G(2,2,2)),
-- is_gen_staircase_sub([3,2,2,1,1], [5,3,1]) = true (G(3,2,1)[1,0]),
-- is_gen_staircase_sub([3,1], [2,1,1]) = true (G(2,1,2)[0,1]),
-- is_gen_staircase_sub([3,2], [2,2,1]) = false (difference 1 below the smallest part 2).
CREATE OR REPLACE MACRO is_gen_staircase_sub(parts, conj) AS
    CASE WHEN len(list_distinct(parts)) = 1 THEN true ELSE
        (parts[1] - parts[-1]) % greatest(len(list_distinct(parts)) - 1, 1) = 0
        AND (len(parts) - conj[-1]) % greatest(len(list_distinct(parts)) - 1, 1) = 0
        AND parts[-1] <= (parts[1] - parts[-1]) // greatest(len(list_distinct(parts)) - 1, 1)
        AND conj[-1] <= (len(parts) - conj[-1]) // greatest(len(list_distinct(parts)) - 1, 1)
        AND list_bool_and(list_transform(parts, lambda x, p: p <= conj[-1] OR x = parts[1]
            - (parts[1] - parts[-1]) // greatest(len(list_distinct(parts)) - 1, 1) * (1 + (p - conj[-1] - 1)
              // greatest((len(parts) - conj[-1]) // greatest(len(list_distinct(parts)) - 1, 1), 1))))
    END;

-- cell_grid(game, parts): the box grid of a board game on λ, as the papers draw it (SPEC §7):
-- one row per row i of the Young diagram, top first, holding sg and sg_misere of λ[i,j] for its
-- cells j = 0, 1, … left to right, separated by spaces ('?' where λ[i,j] has no record: n
-- beyond the store). game is a view name ('lctr', 'king', 'moves_1.3_3.1', …), not Slow SetNim,
-- whose positions are not cells). Reads the records of every n up to |λ|: bound a big store
-- with --max-n.
-- Example: FROM cell_grid('king', [5,5,3,2,1]) gives sg rows '2 1 0 2 1', '0 3 2 1 0', '2 1 0',
-- '1 0', '0' (SPEC §7).
CREATE OR REPLACE MACRO cell_grid(game, parts) AS TABLE
    WITH cells AS (
        SELECT i::INTEGER AS i, j::INTEGER AS j, subpartition(parts, i, j) AS sub
        FROM range(len(parts)) rows_(i), range(parts[1]) columns_(j)
        WHERE j < parts[i + 1]
    )
    SELECT c.i AS row,
           string_agg(coalesce(g.sg::VARCHAR, '?'), ' ' ORDER BY c.j) AS sg,
           string_agg(coalesce(g.sg_misere::VARCHAR, '?'), ' ' ORDER BY c.j) AS sg_misere
    FROM cells c LEFT JOIN query_table(game) g ON g.n = list_sum(c.sub) AND g.parts = c.sub
    GROUP BY c.i ORDER BY c.i;
