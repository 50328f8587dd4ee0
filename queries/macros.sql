-- partgames DuckDB macros (docs/definitions.md §1, §2.3). Executed on every connection: pure SQL, idempotent.
--
-- Conventions
--   * A partition is a list of integers, non-increasing, nonzero parts. [] is the partition of 0.
--   * Row/column arguments i, j are 0-based as in docs/definitions.md §1 (row 0 is the top row).
--   * DuckDB lists are 1-based: parts[1] is the largest part λ1, parts[i + 1] is row i, parts[-1]
--     is the smallest part, parts[i + 1:] drops the top i rows. An index past the end gives NULL,
--     a slice past the end gives []. Two-argument lambdas (lambda x, ix: ...) get a 1-based ix.
--   * Macros returning a partition cast it to SMALLINT[], the type of the `parts` column, so
--     results compare and join directly with `parts` / `conjugate`.
--   * Lambda syntax is the DuckDB >= 1.3 form `lambda x: ...` (the old `x -> ...` is deprecated
--     and rejected by default in DuckDB 2.0).
--   * Comments and strings contain no semicolons, so the file may be split on them naively: a
--     string writes one as \x3B (an E'' string).

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

-- diagonal_shift(corners, dims): the corners of π⁺, the d-dimensional diagram π (d = dims, given
-- by its `corners` column: d coordinates per corner, 1-based) with one layer removed in every
-- direction, shifted back to the origin (its cells x ≥ (2, …, 2), minus one): the corners of π
-- with every coordinate at least 2, each lowered by one, in the same order (a maximal cell of π⁺
-- lies below a corner of π that is ≥ (2, …, 2), so it is that corner lowered). [] when π⁺ is empty.
-- Example: diagonal_shift([2,2,3, 2,3,2, 3,2,2], 3) = [1,1,2, 1,2,1, 2,1,1],
-- diagonal_shift([1,4, 3,2], 2) = [2,1] (LCTR's (4,2,2) shifted is (1,1)).
CREATE OR REPLACE MACRO diagonal_shift(corners, dims) AS
    flatten(list_transform(
        list_filter(range(len(corners) // dims),
            lambda k_: list_min(corners[k_ * dims + 1:k_ * dims + dims]) >= 2),
        lambda k_: list_transform(corners[k_ * dims + 1:k_ * dims + dims], lambda x_: x_ - 1)))::SMALLINT[];

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
-- G(k,r,c) = ((kc)^r, ((k−1)c)^r, …, c^r), k, r, c >= 1, else NULL. (the definitions write a semicolon
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

-- is_nim_reduced(parts, a): the Slow SetNim NIRB condition (docs/definitions.md §2.3) with a = min A:
-- a · max <= Σ. Stacks may be in any order, zeros allowed. [] (all stacks empty) is reduced.
-- Example: is_nim_reduced([3,1,1], 2) = false, is_nim_reduced([2,1,1], 2) = true.
CREATE OR REPLACE MACRO is_nim_reduced(parts, a) AS
    a::BIGINT * coalesce(list_max(parts), 0) <= coalesce(list_sum(parts), 0);

-- nim_reduce(parts, a) = r(p), the Slow SetNim reduced form (docs/definitions.md §2.3, slow-exact-k-nim.txt
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

-- cell_grid(game, parts): the box grid of a board game on λ, as the papers draw it (docs/definitions.md §7):
-- one row per row i of the Young diagram, top first, holding sg and sg_misere of λ[i,j] for its
-- cells j = 0, 1, … left to right, separated by spaces ('?' where λ[i,j] has no record: n
-- beyond the store). game is a view name ('lctr', 'king', 'moves_1.3_3.1', …), not Slow SetNim,
-- whose positions are not cells). Reads the records of every n up to |λ|: bound a big store
-- with --max-n.
-- Example: FROM cell_grid('king', [5,5,3,2,1]) gives sg rows '2 1 0 2 1', '0 3 2 1 0', '2 1 0',
-- '1 0', '0' (docs/definitions.md §7).
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

-- stored_ns(game) = the n of game's records in the store, increasing (the `jobs` view, which lists
-- every (game, n) the views hold: a (game, n) is stored whole or not at all). [] for a game not
-- in the store. Example: on a store of LCTR n <= 3, stored_ns('lctr') = [1, 2, 3]. view_ names the
-- jobs view: a parameter, so that the macro binds when it is used, after the views exist.
CREATE OR REPLACE MACRO stored_ns(game_, view_ := 'jobs') AS
    (SELECT coalesce(list(j_.n::INTEGER ORDER BY j_.n), []::INTEGER[]) FROM query_table(view_) j_ WHERE j_.game = game_);

-- stored(game, n): the store holds game's records of n, so a neighbour of that size is found or
-- does not exist (queries/FORMAT.md, "Records the store lacks"). True for n = 0: the empty
-- position is no record of any store, and every statement treats it as terminal.
-- Example: on a store of LCTR n <= 3, stored('lctr', 2) = true, stored('lctr', 4) = false.
CREATE OR REPLACE MACRO stored(game_, n_, view_ := 'jobs') AS
    n_ = 0 OR list_contains(stored_ns(game_, view_ := view_), n_::INTEGER);

-- ---- Followers: the store checked against itself (queries/consistency/) ----------------------

-- pair_domestic(sg, sg_misere), pair_tame(…), pair_pet(…): the local conditions of docs/definitions.md §5 at
-- one position, which its pair (sg, sg_misere) decides: domestic: not (0,k) nor (k,0) with k >= 2,
-- tame: (0,1), (1,0) or (k,k), pet: (0,1), (1,0) or (k,k) with k >= 2. A record whose flag is true
-- must satisfy the condition at its own pair (the start is a reachable position), and miserable
-- implies tame (docs/definitions.md §5's nesting), so a flag statement is backed by the pair it summarises.
-- Example: pair_domestic(0, 2) = false, pair_tame(2, 1) = false, pair_pet(1, 1) = false.
CREATE OR REPLACE MACRO pair_domestic(sg, sg_misere) AS
    NOT ((sg = 0 AND sg_misere >= 2) OR (sg_misere = 0 AND sg >= 2));
CREATE OR REPLACE MACRO pair_tame(sg, sg_misere) AS
    (sg = 0 AND sg_misere = 1) OR (sg = 1 AND sg_misere = 0) OR sg = sg_misere;
CREATE OR REPLACE MACRO pair_pet(sg, sg_misere) AS
    (sg = 0 AND sg_misere = 1) OR (sg = 1 AND sg_misere = 0) OR (sg = sg_misere AND sg >= 2);

-- local_miserable(sg, sg_misere, terminal, to01, to10), local_forced(sg, sg_misere, terminal,
-- all10, all01), local_returnable(sg, sg_misere, terminal, have01, have10): the local conditions
-- of docs/definitions.md §5 that look past the pair, at a position of pair (sg, sg_misere):
-- miserable: a swap pair, or terminal, or no move to a swap position (to01: some move reaches
-- (0,1), to10: (1,0)), or a move to each. forced: terminal, or a (0,1) position whose every move
-- reaches (1,0) (all10) and a (1,0) one whose every move reaches (0,1) (all01). returnable: as
-- forced, with have01 (have10): every non-terminal follower has a move to (0,1) (to (1,0)).
-- Example: local_miserable(2, 2, false, true, false) = false, local_forced(0, 1, true, false, false) = true.
CREATE OR REPLACE MACRO local_miserable(sg, sg_misere, terminal, to01, to10) AS
    (sg = 0 AND sg_misere = 1) OR (sg = 1 AND sg_misere = 0) OR terminal OR NOT (to01 OR to10)
    OR (to01 AND to10);
CREATE OR REPLACE MACRO local_forced(sg, sg_misere, terminal, all10, all01) AS
    terminal OR ((NOT (sg = 0 AND sg_misere = 1) OR all10) AND (NOT (sg = 1 AND sg_misere = 0) OR all01));
CREATE OR REPLACE MACRO local_returnable(sg, sg_misere, terminal, have01, have10) AS
    terminal OR ((NOT (sg = 0 AND sg_misere = 1) OR have01) AND (NOT (sg = 1 AND sg_misere = 0) OR have10));

-- moveset(game) = STRUCT(steps, rays, exits) of a board game (docs/definitions.md §2.1-2.2, the table of
-- pipeline/games/moveset.py's BUILTIN): steps and rays are lists of offsets [a, b] (a rows down,
-- b columns right), a ray repeated k >= 1 times, exits: a step may leave the diagram into the
-- terminal position () (LCTR only). A user moveset is read from its id: 'moves_1.3_3.1' has the
-- steps (1,3), (3,1), 'moves_1.2+' the ray (1,2). NULL for Slow SetNim.
-- Example: moveset('king') = {steps: [[0,1],[1,0],[1,1]], rays: [], exits: false}.
CREATE OR REPLACE MACRO moveset(game) AS
    CASE game
        WHEN 'lctr' THEN {'steps': [[0, 1], [1, 0]], 'rays': []::INTEGER[][], 'exits': true}
        WHEN 'downright' THEN {'steps': [[0, 1], [1, 0]], 'rays': []::INTEGER[][], 'exits': false}
        WHEN 'pawn' THEN {'steps': [[0, 1], [1, 1]], 'rays': []::INTEGER[][], 'exits': false}
        WHEN 'pawn_t' THEN {'steps': [[1, 0], [1, 1]], 'rays': []::INTEGER[][], 'exits': false}
        WHEN 'knight' THEN {'steps': [[1, 2], [2, 1]], 'rays': []::INTEGER[][], 'exits': false}
        WHEN 'bishop' THEN {'steps': []::INTEGER[][], 'rays': [[1, 1]], 'exits': false}
        WHEN 'king' THEN {'steps': [[0, 1], [1, 0], [1, 1]], 'rays': []::INTEGER[][], 'exits': false}
        WHEN 'rook' THEN {'steps': []::INTEGER[][], 'rays': [[0, 1], [1, 0]], 'exits': false}
        WHEN 'queen' THEN {'steps': []::INTEGER[][], 'rays': [[0, 1], [1, 0], [1, 1]], 'exits': false}
        WHEN 'moves_' || game[7:] THEN {
            'steps': list_transform(list_filter(string_split(game[7:], '_'), lambda x_: NOT ends_with(x_, '+')),
                                    lambda x_: string_split(x_, '.')::INTEGER[]),
            'rays': list_transform(list_filter(string_split(game[7:], '_'), lambda x_: ends_with(x_, '+')),
                                   lambda x_: string_split(rtrim(x_, '+'), '.')::INTEGER[]),
            'exits': false}
    END::STRUCT(steps INTEGER[][], rays INTEGER[][], exits BOOLEAN);

-- board_followers(parts, ms) = the positions reached by the moves of moveset ms (moveset(game))
-- from λ = parts, one entry per move as docs/definitions.md §4 counts them: the step (a, b) when cell (a, b)
-- exists (any step for LCTR, to () when the cell does not exist), the ray (a, b) once for each
-- k >= 1 with cell (ka, kb) in λ, each reaches λ[a,b] (docs/definitions.md §2.2). [] for a terminal position.
-- Example: board_followers([2,1], moveset('king')) = [[1], [1]] ((0,1) and (1,0) both reach (1),
-- two moves, the cell (1,1) is absent), board_followers([1], moveset('lctr')) = [[], []],
-- board_followers([3,3,2], moveset('rook')) = [[2,2,1], [1,1], [3,2], [2]].
CREATE OR REPLACE MACRO board_followers(parts, ms) AS
    list_concat(
        list_transform(
            list_filter(ms.steps, lambda s_: len(parts) > 0
                AND (ms.exits OR (s_[1] < len(parts) AND s_[2] < parts[s_[1] + 1]))),
            lambda s_: subpartition(parts, s_[1], s_[2])),
        flatten(list_transform(ms.rays, lambda d_: list_transform(
            list_filter(
                range(1, least(CASE WHEN d_[1] > 0 THEN (len(parts) - 1) // d_[1] ELSE 1 << 15 END,
                               CASE WHEN d_[2] > 0 THEN (parts[1] - 1) // d_[2] ELSE 1 << 15 END) + 1),
                lambda k_: k_ * d_[2] < parts[k_ * d_[1] + 1]),
            lambda k_: subpartition(parts, k_ * d_[1], k_ * d_[2]))))
    )::SMALLINT[][];

-- sn_move_masks(parts, moves) = the moves of Slow SetNim SN(s, A) from the stacks parts (the
-- nonzero heights, non-increasing) with A = moves, one per distinct multiset reached (docs/definitions.md §2.3):
-- each a bitmask over the stacks (bit i: stack i + 1 loses a token), ℓ ∈ A bits in all. Taking the
-- token from the last stacks of each block of equal heights keeps the heights non-increasing, so
-- the masks that take a suffix of every block name each multiset once.
-- Example: sn_move_masks([2,1,1], [2]) = [5, 6] (stacks 1 and 3, stacks 2 and 3, not 3, stacks 1
-- and 2, which takes the first of the two stacks of height 1).
CREATE OR REPLACE MACRO sn_move_masks(parts, moves) AS
    list_filter(range(1, 1 << len(parts)),
        lambda m_: list_contains(moves, bit_count(m_)::INTEGER)
            AND list_bool_and(list_transform(range(len(parts)),
                lambda i_: (m_ >> i_) & 1 = 0 OR i_ + 1 >= len(parts) OR parts[i_ + 2] <> parts[i_ + 1]
                           OR (m_ >> (i_ + 1)) & 1 = 1)));

-- sn_after(parts, m) = the heights after the move m (a mask of sn_move_masks), zeros kept, so
-- stack i + 1 of parts is entry i + 1 of the result (still non-increasing).
-- Example: sn_after([2,1,1], 5) = [1,1,0].
CREATE OR REPLACE MACRO sn_after(parts, m) AS
    list_transform(parts, lambda x_, ix_: x_ - ((m >> (ix_ - 1)) & 1))::SMALLINT[];

-- sn_followers(parts, moves) = the positions reached by sn_move_masks, zeros dropped ([] when
-- every stack is empty). Example: sn_followers([2,1,1], [2]) = [[1,1], [2]].
CREATE OR REPLACE MACRO sn_followers(parts, moves) AS
    list_transform(sn_move_masks(parts, moves),
        lambda m_: list_filter(sn_after(parts, m_), lambda x_: x_ > 0))::SMALLINT[][];

-- mex(xs) = the least non-negative integer not in xs (docs/definitions.md §3).  Example: mex([0, 2, 1, 4]) = 3,
-- mex([]) = 0.
CREATE OR REPLACE MACRO mex(xs) AS
    list_min(list_filter(range(len(xs) + 1), lambda v_: NOT list_contains(xs, v_)));

-- value_bit(v) = 2^v as a HUGEINT for 0 <= v <= 126, 0 otherwise: bit_or(value_bit(sg)) over a
-- position's followers is the set of their values as one number, far cheaper to aggregate than
-- a list. mex_of_bits(m) = the least v whose bit is not set (docs/definitions.md §3's mex), NULL when bits 0-126
-- are all set (a mex of 127 or more, i.e. a position with at least 127 moves: n >= 125).
-- (m + 1) & ~m isolates the lowest clear bit, 2^mex, 2^mex − 1 has mex bits set.
-- Example: mex_of_bits(value_bit(0) | value_bit(1) | value_bit(3)) = 2, mex_of_bits(0) = 0.
CREATE OR REPLACE MACRO value_bit(v) AS
    CASE WHEN v BETWEEN 0 AND 126 THEN (1::HUGEINT) << v::HUGEINT ELSE 0::HUGEINT END;
CREATE OR REPLACE MACRO mex_of_bits(m) AS
    CASE WHEN m <> 170141183460469231731687303715884105727 THEN bit_count(((m + 1) & ~m) - 1)::INTEGER END;

-- partition_key(parts) = Σ 2^(λ_i + r − i) over the r parts (1-based i): the β-numbers λ_i + r − i
-- are distinct, so the key is the set of them as bits, and r is its number of bits: distinct
-- partitions have distinct keys, () has key 0. Exact for n <= 126 (the top bit is λ1 + r − 1 <= n,
-- and a HUGEINT holds bits 0-126). A join on the key is a join on the partition that hashes and
-- compares one integer instead of a list.
-- Example: partition_key([3,3,2]) = 2^5 + 2^4 + 2^2 = 52, partition_key([2,1]) = 10.
CREATE OR REPLACE MACRO partition_key(parts) AS
    coalesce(list_sum(list_transform(parts,
        lambda x_, i_: (1::HUGEINT) << (x_ + len(parts) - i_)::HUGEINT)), 0::HUGEINT);

-- sub_key(key, parts, conj, i, j) = partition_key(λ[i,j]) from partition_key(λ), λ and its
-- conjugate λ', for a cell (i, j) of λ (or, for LCTR's moves off the diagram, i <= 1 with
-- j = 0 or i = 0 with j <= 1, giving 0 = ()). Dropping the top i rows keeps the r − i smallest
-- β-numbers (those below λ_{i+1} + r − i), dropping the left j columns then removes the parts
-- <= j, whose β-numbers are the lowest, and lowers the others by j + r − λ'_{j+1}: both are bit
-- operations, no list is built.
-- Example: sub_key(52, [3,3,2], [3,3,2], 1, 1) = partition_key([2,1]) = 10.
CREATE OR REPLACE MACRO sub_key(key, parts, conj, i, j) AS
    (key & (((1::HUGEINT) << (coalesce(parts[i + 1], 0) + len(parts) - i)::HUGEINT) - 1))
        >> (j + len(parts) - coalesce(conj[j + 1], 0))::HUGEINT;

-- board_follower_keys(key, parts, conj, ms) = the partition_key of every entry of
-- board_followers(parts, ms), in the same order (0 for ()), computed with sub_key.
-- Example: board_follower_keys(52, [3,3,2], [3,3,2], moveset('king')) = [26, 20, 10].
CREATE OR REPLACE MACRO board_follower_keys(key, parts, conj, ms) AS
    list_concat(
        list_transform(
            list_filter(ms.steps, lambda s_: len(parts) > 0
                AND (ms.exits OR (s_[1] < len(parts) AND s_[2] < parts[s_[1] + 1]))),
            lambda s_: sub_key(key, parts, conj, s_[1], s_[2])),
        flatten(list_transform(ms.rays, lambda d_: list_transform(
            list_filter(
                range(1, least(CASE WHEN d_[1] > 0 THEN (len(parts) - 1) // d_[1] ELSE 1 << 15 END,
                               CASE WHEN d_[2] > 0 THEN (parts[1] - 1) // d_[2] ELSE 1 << 15 END) + 1),
                lambda k_: k_ * d_[2] < parts[k_ * d_[1] + 1]),
            lambda k_: sub_key(key, parts, conj, k_ * d_[1], k_ * d_[2]))))
    );

-- follower_check(records, edges): the records of the view or CTE named `records` that disagree
-- with their followers' records: the game tree of docs/definitions.md §3-5 unrolled one move.
-- `records` has the columns of a record and key = record_key(n, ordinal), `edges` has one row
-- per move: game, key, sg, sg_misere of the position x moved from and fkey, the key of the
-- position moved to (follower_keys, or part_keys of the sn_followers). The records checked are
-- those with verify_subject(n) (every record outside `partgames verify`), `edges` holds their
-- moves and, for returnable's second move, those of the followers of the subjects whose pair is
-- (0,1) or (1,0) (board_consistency builds both). A follower () (fkey 0) has
-- no record: it is the terminal position of LCTR and of Slow SetNim (sg 0, sg_misere 1, one node,
-- one leaf, one state, height 0, every flag true). From the followers y of x (a terminal x has
-- none):
--   sg = mex sg(y), sg_misere = mex sg_misere(y), with sg_misere = 1 at a terminal (docs/definitions.md §3,
--   a mex of 127 or more is not checked, see mex_of_bits),
--   nodes = 1 + Σ nodes(y), leaves = Σ leaves(y) (1 at a terminal), height = 1 + max height(y)
--   (0 at a terminal), a count NULL when a follower's is NULL or the sum passes 2^63 − 1 (docs/definitions.md §4),
--   1 + max states(y) <= states <= 1 + Σ states(y) (x is reachable from no y, and every position
--   reachable from x is x or reachable from a y),
--   each flag = its local condition at x AND the flag of every y (docs/definitions.md §5: the condition holds at
--   every position reachable from x), the local conditions read with x's pair as its followers
--   give it. Returnable's looks two moves ahead: for x = (0,1) every non-terminal y needs a move
--   to a (0,1) position, which the first pass records per y.
-- A move whose target has no record is reported ('followers not in the store'): the statements
-- run only on records whose followers' n are held (needs: followers), so it is a store defect.
-- One row per disagreeing record: the columns found wrong (`wrong`), the record's values and
-- those its followers give.
CREATE OR REPLACE MACRO follower_check(records_, edges_) AS TABLE
    WITH moves_ AS (
        SELECT e_.game, e_.key, e_.fkey = 0 OR y_.key IS NOT NULL AS found,
               value_bit(CASE WHEN e_.fkey = 0 THEN 0 ELSE y_.sg END) AS sg_bit,
               value_bit(CASE WHEN e_.fkey = 0 THEN 1 ELSE y_.sg_misere END) AS sg_misere_bit,
               e_.fkey = 0 OR (y_.sg = 0 AND y_.sg_misere = 1) AS is01,
               e_.fkey <> 0 AND y_.sg = 1 AND y_.sg_misere = 0 AS is10,
               CASE WHEN e_.fkey = 0 THEN 1 ELSE y_.nodes END AS nodes,
               e_.fkey <> 0 AND y_.nodes IS NULL AS nodes_null,
               CASE WHEN e_.fkey = 0 THEN 1 ELSE y_.leaves END AS leaves,
               e_.fkey <> 0 AND y_.leaves IS NULL AS leaves_null,
               CASE WHEN e_.fkey = 0 THEN 1 ELSE y_.states END AS states,
               CASE WHEN e_.fkey = 0 THEN 0 ELSE y_.height END AS height,
               e_.fkey = 0 OR y_.domestic AS domestic, e_.fkey = 0 OR y_.tame AS tame,
               e_.fkey = 0 OR y_.pet AS pet, e_.fkey = 0 OR y_.miserable AS miserable,
               e_.fkey = 0 OR y_.forced AS forced, e_.fkey = 0 OR y_.returnable AS returnable
        FROM query_table(edges_) e_
        -- the filter (always true: keys are >= 0) lowers DuckDB's estimate of the records below
        -- that of the moves, so that the records are the join's hash table and the moves stream
        -- past it (rook: 25 moves per record, with the moves as the hash table, queen n <= 64
        -- outgrew 38 GiB of spill space)
        LEFT JOIN (SELECT * FROM query_table(records_) WHERE key >= 0) y_
               ON y_.game = e_.game AND y_.key = e_.fkey
    ),
    agg_ AS MATERIALIZED (
        SELECT game, key, bool_and(found) AS found, bit_or(sg_bit) AS sgs, bit_or(sg_misere_bit) AS miss,
               sum(nodes) AS nodes, bool_or(nodes_null) AS nodes_null,
               sum(leaves) AS leaves, bool_or(leaves_null) AS leaves_null,
               max(states) AS states_max, sum(states) AS states_sum, max(height) AS height,
               bool_and(domestic) AS domestic, bool_and(tame) AS tame, bool_and(pet) AS pet,
               bool_and(miserable) AS miserable, bool_and(forced) AS forced,
               bool_and(returnable) AS returnable,
               bool_or(is01) AS to01, bool_or(is10) AS to10, bool_and(is01) AS all01, bool_and(is10) AS all10
        FROM moves_ GROUP BY game, key
    ),
    -- returnable, second move: for each x whose pair is a swap, whether every non-terminal
    -- follower y (one with moves, so a row of agg_) has a move to (0,1), resp. (1,0)
    ret_ AS (
        SELECT e_.game, e_.key,
               bool_and(a_.key IS NULL OR a_.to01) AS have01, bool_and(a_.key IS NULL OR a_.to10) AS have10
        FROM query_table(edges_) e_
        LEFT JOIN (SELECT * FROM agg_ WHERE key >= 0) a_ ON a_.game = e_.game AND a_.key = e_.fkey
        WHERE (e_.sg = 0 AND e_.sg_misere = 1) OR (e_.sg = 1 AND e_.sg_misere = 0)
        GROUP BY e_.game, e_.key
    ),
    expect_ AS (
        SELECT r_.game, r_.n, r_.parts, r_.sg, r_.sg_misere, r_.nodes, r_.leaves, r_.states, r_.height,
               r_.domestic, r_.tame, r_.pet, r_.miserable, r_.forced, r_.returnable,
               coalesce(a_.found, true) AS found, a_.key IS NULL AS terminal,
               a_.to01, a_.to10, a_.all01, a_.all10, t_.have01, t_.have10,
               a_.domestic AS f_domestic, a_.tame AS f_tame, a_.pet AS f_pet, a_.miserable AS f_miserable,
               a_.forced AS f_forced, a_.returnable AS f_returnable,
               CASE WHEN a_.key IS NULL THEN 0 ELSE mex_of_bits(a_.sgs) END AS e_sg,
               CASE WHEN a_.key IS NULL THEN 1 ELSE mex_of_bits(a_.miss) END AS e_sg_misere,
               CASE WHEN a_.key IS NULL THEN 1
                    WHEN a_.nodes_null OR a_.nodes + 1 > 9223372036854775807 THEN NULL
                    ELSE a_.nodes + 1 END AS e_nodes,
               CASE WHEN a_.key IS NULL THEN 1
                    WHEN a_.leaves_null OR a_.leaves > 9223372036854775807 THEN NULL
                    ELSE a_.leaves END AS e_leaves,
               1 + coalesce(a_.states_max, 0) AS e_states_min, 1 + coalesce(a_.states_sum, 0) AS e_states_max,
               CASE WHEN a_.key IS NULL THEN 0 ELSE a_.height + 1 END AS e_height
        FROM query_table(records_) r_
        LEFT JOIN agg_ a_ ON a_.game = r_.game AND a_.key = r_.key
        LEFT JOIN ret_ t_ ON t_.game = r_.game AND t_.key = r_.key
        WHERE verify_subject(r_.n)
    ),
    check_ AS (
        SELECT *,
               pair_domestic(e_sg, e_sg_misere) AND coalesce(f_domestic, true) AS e_domestic,
               pair_tame(e_sg, e_sg_misere) AND coalesce(f_tame, true) AS e_tame,
               pair_pet(e_sg, e_sg_misere) AND coalesce(f_pet, true) AS e_pet,
               local_miserable(e_sg, e_sg_misere, terminal, to01, to10)
                   AND coalesce(f_miserable, true) AS e_miserable,
               local_forced(e_sg, e_sg_misere, terminal, all10, all01) AND coalesce(f_forced, true) AS e_forced,
               local_returnable(e_sg, e_sg_misere, terminal, coalesce(have01, true), coalesce(have10, true))
                   AND coalesce(f_returnable, true) AS e_returnable
        FROM expect_
    )
    SELECT game, n, parts,
           CASE WHEN NOT found THEN ['followers not in the store'] ELSE list_filter([
               CASE WHEN sg IS DISTINCT FROM e_sg AND e_sg IS NOT NULL THEN 'sg' END,
               CASE WHEN sg_misere IS DISTINCT FROM e_sg_misere AND e_sg_misere IS NOT NULL THEN 'sg_misere' END,
               CASE WHEN nodes IS DISTINCT FROM e_nodes THEN 'nodes' END,
               CASE WHEN leaves IS DISTINCT FROM e_leaves THEN 'leaves' END,
               CASE WHEN height IS DISTINCT FROM e_height THEN 'height' END,
               CASE WHEN NOT coalesce(states BETWEEN e_states_min AND e_states_max, false) THEN 'states' END,
               CASE WHEN domestic IS DISTINCT FROM e_domestic THEN 'domestic' END,
               CASE WHEN tame IS DISTINCT FROM e_tame THEN 'tame' END,
               CASE WHEN pet IS DISTINCT FROM e_pet THEN 'pet' END,
               CASE WHEN miserable IS DISTINCT FROM e_miserable THEN 'miserable' END,
               CASE WHEN forced IS DISTINCT FROM e_forced THEN 'forced' END,
               CASE WHEN returnable IS DISTINCT FROM e_returnable THEN 'returnable' END],
               lambda c_: c_ IS NOT NULL) END AS wrong,
           {'sg': sg, 'sg_misere': sg_misere, 'nodes': nodes, 'leaves': leaves, 'states': states,
            'height': height, 'flags': [domestic, tame, pet, miserable, forced, returnable]} AS record,
           {'sg': e_sg, 'sg_misere': e_sg_misere, 'nodes': e_nodes, 'leaves': e_leaves,
            'states': [e_states_min, e_states_max], 'height': e_height,
            'flags': [e_domestic, e_tame, e_pet, e_miserable, e_forced, e_returnable]} AS from_followers
    FROM check_
    WHERE NOT found OR len(wrong) > 0;

-- board_consistency(view): follower_check over a board game's view (or a CTE of several games'
-- records with their `game` column, as `records` filtered to the user movesets): keys from
-- record_key, moves from follower_keys(game, parts), for the subjects (verify_subject) and the
-- followers of their swap positions.
CREATE OR REPLACE MACRO board_consistency(view_) AS TABLE
    WITH recs_ AS (
        SELECT game, n, parts, record_key(n, ordinal) AS key, sg, sg_misere, nodes, leaves, states,
               height, domestic, tame, pet, miserable, forced, returnable
        FROM query_table(view_)
    ),
    subj_ AS MATERIALIZED (
        SELECT game, key, sg, sg_misere, unnest(follower_keys(game, parts)) AS fkey
        FROM recs_ WHERE verify_subject(n)
    ),
    edges_ AS MATERIALIZED (
        SELECT * FROM subj_
        UNION ALL
        SELECT game, key, sg, sg_misere, unnest(follower_keys(game, parts)) AS fkey
        FROM recs_
        WHERE NOT verify_subject(n) AND (game, key) IN (
            SELECT (game, fkey) FROM subj_ WHERE (sg = 0 AND sg_misere = 1) OR (sg = 1 AND sg_misere = 0))
    )
    SELECT * FROM follower_check('recs_', 'edges_');

-- rules_moves(view, multi): the moves of a rules game's records (docs/rules.md) for its
-- consistency statement (consistency.rules.GAME, written by pipeline/rules_verify.py): for the
-- subjects (verify_subject) and the followers of their swap positions (as board_consistency),
-- fkeys = the keys of rules_options(game, parts) (the options its rules give, one per move, or
-- one per distinct option when multi is false, docs/definitions.md §4), and `valid`: every
-- option is a partition of at most the record's n, or () when () has no option under the rules
-- (the terminal position follower_check reads a key 0 as). An option that is not a partition (a
-- position with more than its parts) has no record: its record is not checked.
-- Example: over chomp's records of n <= 3, (2,1) has fkeys [part_key([1,1]), part_key([2])].
CREATE OR REPLACE MACRO rules_moves(view_, multi_) AS TABLE
    WITH recs_ AS (
        SELECT game, n, parts, record_key(n, ordinal) AS key, sg, sg_misere FROM query_table(view_)
    ),
    subj_ AS MATERIALIZED (
        SELECT game, n, key, sg, sg_misere, true AS subject,
               part_keys(rules_options(game, parts)) AS fkeys,
               len(rules_options(game, []::BIGINT[])) = 0 AS closed
        FROM recs_ WHERE verify_subject(n)
    ),
    all_ AS (
        SELECT * FROM subj_
        UNION ALL
        SELECT game, n, key, sg, sg_misere, false AS subject,
               part_keys(rules_options(game, parts)) AS fkeys,
               len(rules_options(game, []::BIGINT[])) = 0 AS closed
        FROM recs_
        WHERE NOT verify_subject(n) AND (game, key) IN (
            SELECT (game, unnest(fkeys)) FROM subj_
            WHERE (sg = 0 AND sg_misere = 1) OR (sg = 1 AND sg_misere = 0))
    ),
    valid_ AS (
        SELECT *, len(list_filter(fkeys, lambda k_: k_ IS NULL OR k_ >> 40 > n
                                                    OR (k_ = 0 AND NOT closed))) = 0 AS valid
        FROM all_
    )
    SELECT game, n, key, sg, sg_misere, subject, valid,
           CASE WHEN multi_ OR NOT valid THEN fkeys ELSE list_distinct(fkeys) END AS fkeys
    FROM valid_;

-- rules_unchecked(moves, records, all_starts): the subjects of a rules_moves table (named
-- `moves`) whose values their followers' records cannot give: a position is unreadable when an
-- option is not a partition (not `valid`) or, for rules with their own starts (all_starts
-- false), an option other than () has no record in `records` (it is not a start: with every
-- partition a start, a missing record is a defect of the store, which follower_check reports).
-- A subject is left out when it is unreadable, or when its pair is a swap (returnable looks two
-- moves ahead) and one of its followers is. One row (game, key) per subject.
CREATE OR REPLACE MACRO rules_unchecked(moves_, records_, all_starts_) AS TABLE
    WITH m_ AS (SELECT * FROM query_table(moves_)),
    e_ AS (SELECT game, key, unnest(fkeys) AS fkey FROM m_ WHERE valid),
    bad_ AS (
        SELECT game, key FROM m_ WHERE NOT valid
        UNION
        SELECT e_.game, e_.key FROM e_
        LEFT JOIN (SELECT game, record_key(n, ordinal) AS key FROM query_table(records_)) y_
            ON y_.game = e_.game AND y_.key = e_.fkey
        WHERE NOT all_starts_ AND e_.fkey <> 0 AND y_.key IS NULL
    )
    SELECT game, key FROM m_ WHERE subject AND (game, key) IN (SELECT (game, key) FROM bad_)
    UNION
    SELECT s_.game, s_.key FROM m_ s_
    JOIN e_ ON e_.game = s_.game AND e_.key = s_.key
    JOIN bad_ b_ ON b_.game = e_.game AND b_.key = e_.fkey
    WHERE s_.subject AND ((s_.sg = 0 AND s_.sg_misere = 1) OR (s_.sg = 1 AND s_.sg_misere = 0));

-- rules_examined(view, multi, all_starts): one row per subject of a rules game's records in the
-- view (or CTE) named `view`, with `examined` false for those rules_unchecked leaves out (the
-- domain of consistency.rules.GAME).
CREATE OR REPLACE MACRO rules_examined(view_, multi_, all_starts_) AS TABLE
    WITH moves_ AS MATERIALIZED (SELECT * FROM rules_moves(view_, multi_)),
    out_ AS (SELECT * FROM rules_unchecked('moves_', view_, all_starts_))
    SELECT m_.n, (m_.game, m_.key) NOT IN (SELECT (game, key) FROM out_) AS examined
    FROM moves_ m_ WHERE m_.subject;

-- rules_consistency(view, multi, all_starts): follower_check over a rules game's records, its
-- moves from its rules (rules_moves), the subjects rules_unchecked names left out.
CREATE OR REPLACE MACRO rules_consistency(view_, multi_, all_starts_) AS TABLE
    WITH recs_ AS (
        SELECT game, n, parts, record_key(n, ordinal) AS key, sg, sg_misere, nodes, leaves, states,
               height, domestic, tame, pet, miserable, forced, returnable
        FROM query_table(view_)
    ),
    moves_ AS MATERIALIZED (SELECT * FROM rules_moves(view_, multi_)),
    edges_ AS MATERIALIZED (
        SELECT game, key, sg, sg_misere, unnest(fkeys) AS fkey FROM moves_ WHERE valid
    ),
    out_ AS MATERIALIZED (SELECT * FROM rules_unchecked('moves_', view_, all_starts_))
    SELECT c_.* FROM follower_check('recs_', 'edges_') c_
    WHERE (c_.game, part_key(c_.parts)) NOT IN (SELECT (game, key) FROM out_);

-- rules_array_moves(keyed, multi): the moves of the records of rules whose positions are arrays
-- (POSITIONS = "arrays", docs/rules.md), for consistency.rules.GAME as rules_moves gives those
-- of rules on partitions. `keyed` names the records with a key each (positive, one a record:
-- rules_array_consistency numbers them), and a follower's key is that of the first record of its
-- array, 0 for an option with no record and no option (terminal under the rules), NULL for an
-- option with no record that has options (not a start, or of an n the view does not hold). One
-- row per move (per distinct option when multi is false) of the subjects (verify_subject) and
-- of the followers of their swap positions, with `subject` (a record with no move has no row).
-- Example: lctr_d3_rules' record [1,1,1] (one cell) has three rows, each fkey 0 ([0] terminal).
CREATE OR REPLACE MACRO rules_array_moves(keyed_, multi_) AS TABLE
    WITH k_ AS (SELECT * FROM query_table(keyed_)),
    first_ AS (SELECT game, parts::BIGINT[] AS parts, min(key) AS key FROM k_ GROUP BY game, parts),
    opts_ AS (
        SELECT game, n, key, sg, sg_misere, verify_subject(n) AS subject,
               unnest(rules_options(game, parts)) AS opt
        FROM k_ WHERE verify_subject(n)
    ),
    subj_ AS MATERIALIZED (
        SELECT o_.game, o_.n, o_.key, o_.sg, o_.sg_misere, o_.subject, o_.opt, f_.key AS fkey
        FROM opts_ o_ LEFT JOIN first_ f_ ON f_.game = o_.game AND f_.parts = o_.opt
    ),
    more_ AS (
        SELECT game, n, key, sg, sg_misere, false AS subject,
               unnest(rules_options(game, parts)) AS opt
        FROM k_
        WHERE NOT verify_subject(n) AND (game, key) IN (
            SELECT (game, fkey) FROM subj_
            WHERE (sg = 0 AND sg_misere = 1) OR (sg = 1 AND sg_misere = 0))
    ),
    all_ AS (
        SELECT * FROM subj_
        UNION ALL
        SELECT m_.game, m_.n, m_.key, m_.sg, m_.sg_misere, m_.subject, m_.opt, f_.key
        FROM more_ m_ LEFT JOIN first_ f_ ON f_.game = m_.game AND f_.parts = m_.opt
    ),
    resolved_ AS (
        SELECT game, n, key, sg, sg_misere, subject, opt,
               CASE WHEN fkey IS NOT NULL THEN fkey
                    WHEN len(rules_options(game, opt)) = 0 THEN 0 END AS fkey
        FROM all_
    )
    SELECT game, n, key, sg, sg_misere, subject, fkey FROM resolved_ WHERE multi_
    UNION ALL
    SELECT DISTINCT game, n, key, sg, sg_misere, subject, fkey FROM resolved_ WHERE NOT multi_;

-- rules_array_unchecked(moves): the subjects of a rules_array_moves table (named `moves`) whose
-- values their followers' records cannot give: one with a move to a NULL fkey, or whose pair is
-- a swap (returnable looks two moves ahead) with a follower that has one. One row (game, key).
CREATE OR REPLACE MACRO rules_array_unchecked(moves_) AS TABLE
    WITH m_ AS (SELECT * FROM query_table(moves_)),
    bad_ AS (SELECT DISTINCT game, key FROM m_ WHERE fkey IS NULL)
    SELECT game, key FROM m_ WHERE subject AND (game, key) IN (SELECT (game, key) FROM bad_)
    UNION
    SELECT s_.game, s_.key FROM m_ s_
    JOIN bad_ b_ ON b_.game = s_.game AND b_.key = s_.fkey
    WHERE s_.subject AND ((s_.sg = 0 AND s_.sg_misere = 1) OR (s_.sg = 1 AND s_.sg_misere = 0));

-- rules_array_examined(view, multi): one row per subject of the records in the view (or CTE)
-- named `view` of rules whose positions are arrays, with `examined` false for those
-- rules_array_unchecked leaves out (the domain of consistency.rules.GAME).
CREATE OR REPLACE MACRO rules_array_examined(view_, multi_) AS TABLE
    WITH keyed_ AS MATERIALIZED (
        SELECT game, n, parts, sg, sg_misere, row_number() OVER () AS key FROM query_table(view_)
    ),
    moves_ AS MATERIALIZED (SELECT * FROM rules_array_moves('keyed_', multi_)),
    out_ AS (SELECT * FROM rules_array_unchecked('moves_'))
    SELECT n, (game, key) NOT IN (SELECT (game, key) FROM out_) AS examined
    FROM keyed_ WHERE verify_subject(n);

-- rules_array_consistency(view, multi): follower_check over the records of rules whose
-- positions are arrays, each record keyed by its row (follower_check needs a key, and the
-- records of such rules have no ordinal), its moves from its rules (rules_array_moves), the
-- subjects rules_array_unchecked names left out.
CREATE OR REPLACE MACRO rules_array_consistency(view_, multi_) AS TABLE
    WITH recs_ AS MATERIALIZED (
        SELECT game, n, parts, row_number() OVER () AS key, sg, sg_misere, nodes, leaves, states,
               height, domestic, tame, pet, miserable, forced, returnable
        FROM query_table(view_)
    ),
    moves_ AS MATERIALIZED (SELECT * FROM rules_array_moves('recs_', multi_)),
    edges_ AS (SELECT game, key, sg, sg_misere, fkey FROM moves_ WHERE fkey IS NOT NULL),
    out_ AS MATERIALIZED (SELECT * FROM rules_array_unchecked('moves_'))
    SELECT c_.* FROM follower_check('recs_', 'edges_') c_
    WHERE (c_.game, c_.n, c_.parts) NOT IN (
        SELECT (r_.game, r_.n, r_.parts) FROM recs_ r_ JOIN out_ o_ ON o_.game = r_.game AND o_.key = r_.key);

-- ---- Thick Γ-partitions (a^m, r^s), a > r (lctr-some-results.txt, Lemmas 14-16, Theorem 17) ----
-- For such a record: a = largest, m = conjugate[largest] (the parts equal to a), r =
-- parts[num_parts] (the smallest part).

-- thick_gamma_sg(a, m, r, parity_case): the SG value of LCTR at (a^m, r^s), m > r, as Theorem 17
-- of lctr-some-results.txt gives it once corrected (docs/definitions.md §8.1): (r + m) mod 2 where
-- ``parity_case`` (a = r + 1, a = r + 2, or a − r even), else by k = m − r: 1 (k = 1), 2 (k = 2),
-- 0 (odd k >= 3), 1 (even k >= 4), whatever s.
-- Example: thick_gamma_sg(6, 4, 3, false) = 0.
CREATE OR REPLACE MACRO thick_gamma_sg(a, m, r, parity_case) AS
    CASE WHEN parity_case THEN (r + m) % 2 WHEN m - r = 1 THEN 1 WHEN m - r = 2 THEN 2
         WHEN (m - r) % 2 = 1 THEN 0 ELSE 1 END;

-- thick_gamma_printed(a, m, r, sg, parity_case): the SG value sg at (a^m, r^s) agrees with
-- Theorem 17 (and Lemma 16) as printed, each printed case read as an implication: in the odd
-- case, 0 if m = r, or m − r odd and m > 3, 1 if m = r + 1, or m − r even and m > 4, 2 if m = r + 2.
-- Example: thick_gamma_printed(6, 4, 3, 0, false) = false (the printed cases overlap there).
CREATE OR REPLACE MACRO thick_gamma_printed(a, m, r, sg, parity_case) AS
    CASE WHEN parity_case THEN sg = (r + m) % 2
         ELSE NOT (((m = r OR ((m - r) % 2 = 1 AND m > 3)) AND sg <> 0)
                   OR ((m = r + 1 OR ((m - r) % 2 = 0 AND m > 4)) AND sg <> 1)
                   OR (m = r + 2 AND sg <> 2)) END;

-- theorem22_alpha(t1, t2, t3): the SG value of LCTR at the partition (t1, t2, t3) of at most three
-- rows (zeros dropped), t1 >= t2 >= t3 >= 0, by Lemmas 12, 13 and 14 of lctr-sg-complexity.txt
-- (the α's of Theorem 22's proof): 0 for (), one row t1: 1 if t1 is odd, else 2, two rows: 0 or 2
-- for t1 = t2 even or odd, else 0 if t2 is odd, 1 if even, three rows by Lemma 14's cases.
-- Example: theorem22_alpha(3, 0, 0) = 1, theorem22_alpha(2, 2, 0) = 0, theorem22_alpha(2, 2, 2) = 2.
CREATE OR REPLACE MACRO theorem22_alpha(t1, t2, t3) AS
    CASE WHEN t1 = 0 THEN 0
         WHEN t2 = 0 THEN CASE WHEN t1 % 2 = 1 THEN 1 ELSE 2 END
         WHEN t3 = 0 THEN
             CASE WHEN t1 = t2 THEN CASE WHEN t1 % 2 = 0 THEN 0 ELSE 2 END
                  ELSE CASE WHEN t2 % 2 = 1 THEN 0 ELSE 1 END END
         WHEN t1 = t2 AND t2 = t3 THEN
             CASE WHEN t3 = 2 THEN 2 WHEN t3 = 1 OR t3 % 2 = 0 THEN 1 ELSE 0 END
         WHEN t1 > t2 AND t2 = t3 THEN CASE WHEN t3 % 2 = 1 THEN 0 ELSE 1 END
         WHEN t1 = t2 THEN CASE WHEN t3 % 2 = 0 THEN 0 ELSE 1 END
         WHEN t3 = 1 THEN CASE WHEN t2 % 2 = 0 THEN 1 ELSE 2 END
         ELSE CASE WHEN t3 % 2 = 0 THEN 0 ELSE 1 END
    END;

-- mex_of_two(a, b): the least value in {0, 1, 2} that is neither a nor b, the SG value of a
-- position with two moves to values a and b (docs/definitions.md §3).
-- Example: mex_of_two(0, 2) = 1, mex_of_two(1, 0) = 2, mex_of_two(1, 1) = 0.
CREATE OR REPLACE MACRO mex_of_two(a, b) AS
    CASE WHEN a <> 0 AND b <> 0 THEN 0 WHEN a <> 1 AND b <> 1 THEN 1 ELSE 2 END;

-- ---- Two moves: a position's values from those of its followers, one by one ----
-- The consistency statements of LCTR and Downright read a record's neighbourhood
-- (queries/FORMAT.md): a position λ of either has at most two moves, to T(λ) = λ[1,0] and
-- L(λ) = λ[0,1]. In these macros m1 and m2 say whether each move is legal (LCTR: always, to ()
-- included, Downright: when its target is not ()), a and b are the targets' values, and a
-- position with neither move is terminal (docs/definitions.md §3-5).

-- two_move_mex(m1, a, m2, b, terminal) = mex of the values of the legal moves (docs/definitions.md
-- §3), ``terminal`` when there is none (0 for sg, 1 for sg_misere).
-- Example: two_move_mex(true, 0, true, 2, 0) = 1, two_move_mex(false, 0, true, 1, 0) = 0.
CREATE OR REPLACE MACRO two_move_mex(m1, a, m2, b, terminal) AS
    CASE WHEN NOT m1 AND NOT m2 THEN terminal
         WHEN (NOT m1 OR a <> 0) AND (NOT m2 OR b <> 0) THEN 0
         WHEN (NOT m1 OR a <> 1) AND (NOT m2 OR b <> 1) THEN 1
         ELSE 2 END;

-- two_move_count(m1, a, m2, b, own, terminal): a game-tree count of the position from its
-- followers' (docs/definitions.md §4): ``own`` + the sum over the legal moves (nodes: own 1,
-- leaves: own 0), ``terminal`` when there is none (1 for both), NULL when a counted follower's
-- is NULL or the total passes 2^63 − 1.
-- Example: two_move_count(true, 3, true, 4, 1, 1) = 8, two_move_count(true, 9223372036854775807, true, 1, 0, 1) = NULL.
CREATE OR REPLACE MACRO two_move_count(m1, a, m2, b, own, terminal) AS
    CASE WHEN NOT m1 AND NOT m2 THEN terminal
         WHEN own::HUGEINT + CASE WHEN m1 THEN a::HUGEINT ELSE 0 END
              + CASE WHEN m2 THEN b::HUGEINT ELSE 0 END > 9223372036854775807 THEN NULL
         ELSE (own::HUGEINT + CASE WHEN m1 THEN a::HUGEINT ELSE 0 END
               + CASE WHEN m2 THEN b::HUGEINT ELSE 0 END)::BIGINT END;

-- two_move_max(m1, a, m2, b) = the largest value of a legal move (NULL when there is none).
CREATE OR REPLACE MACRO two_move_max(m1, a, m2, b) AS
    greatest(CASE WHEN m1 THEN a END, CASE WHEN m2 THEN b END);

-- two_move_to(m1, a_sg, a_sg_misere, m2, b_sg, b_sg_misere, sg, sg_misere): some legal move
-- reaches a position of pair (sg, sg_misere).
-- Example: two_move_to(true, 1, 0, false, 0, 1, 0, 1) = false.
CREATE OR REPLACE MACRO two_move_to(m1, a_sg, a_sg_misere, m2, b_sg, b_sg_misere, sg, sg_misere) AS
    (m1 AND a_sg = sg AND a_sg_misere = sg_misere) OR (m2 AND b_sg = sg AND b_sg_misere = sg_misere);

-- two_move_all(m1, a_sg, a_sg_misere, m2, b_sg, b_sg_misere, sg, sg_misere): every legal move
-- reaches a position of pair (sg, sg_misere).
CREATE OR REPLACE MACRO two_move_all(m1, a_sg, a_sg_misere, m2, b_sg, b_sg_misere, sg, sg_misere) AS
    (NOT m1 OR (a_sg = sg AND a_sg_misere = sg_misere)) AND (NOT m2 OR (b_sg = sg AND b_sg_misere = sg_misere));

-- ---- Shape and keys: integer columns of every record (docs/records.md, "Shape and keys") ----

-- old_store_message() = the error of a macro that reads the shape or ordinal column of a record
-- written before those columns existed (the views read such a file with the columns NULL, which
-- a record of the current partgames never has: shape is NOT NULL, ordinal NULL only past n = 405).
CREATE OR REPLACE MACRO old_store_message() AS
    'partgames: records without the shape and ordinal columns (a store written by an older partgames): '
    || 'recompute them with `partgames run --force` (same --games and --max-n)';

-- shape_bit(name) = the bit of family name in a record's `shape` column (pipeline/games/features.py
-- SHAPE_BITS). Each family is exactly the one of its list macro above: row (is_row), column
-- (is_column), rectangle (is_rectangle), staircase (is_staircase), hook (is_hook), two_row
-- (num_parts = 2), three_row (num_parts = 3), thick_gamma (is_thick_gamma), gen_staircase
-- (is_gen_staircase), proper_hook (is_proper_hook), distinct_parts (is_distinct_parts),
-- gen_staircase_sub (is_gen_staircase_sub), quadrated (is_quadrated). An unknown name is an error.
-- Example: shape_bit('staircase') = 3.
CREATE OR REPLACE MACRO shape_bit(name_) AS
    CASE name_
        WHEN 'row' THEN 0 WHEN 'column' THEN 1 WHEN 'rectangle' THEN 2 WHEN 'staircase' THEN 3
        WHEN 'hook' THEN 4 WHEN 'two_row' THEN 5 WHEN 'three_row' THEN 6 WHEN 'thick_gamma' THEN 7
        WHEN 'gen_staircase' THEN 8 WHEN 'proper_hook' THEN 9 WHEN 'distinct_parts' THEN 10
        WHEN 'gen_staircase_sub' THEN 11 WHEN 'quadrated' THEN 12
        ELSE error('shape_bit: no family ' || name_)
    END::INTEGER;

-- is_shape(shape, name): the record whose `shape` column is shape is in the family name (see
-- shape_bit). An integer test: a statement filters on it instead of a list macro.
-- Example: is_shape(shape, 'gen_staircase_sub') on a record = is_gen_staircase_sub(parts, conjugate).
CREATE OR REPLACE MACRO is_shape(shape_, name_) AS
    CASE WHEN shape_ IS NULL THEN error(old_store_message()) ELSE (shape_ >> shape_bit(name_)) & 1 = 1 END;

-- record_key(n, ordinal) = n << 40 | ordinal, the integer key of a record's partition: what
-- part_key(parts) and follower_keys(game, parts) return for it (Python functions registered
-- on every connection, pipeline/query.py: part_key takes any integer list, NULL unless its
-- entries are positive and non-increasing, part_keys(lists) the key of each entry). The key of
-- () is 0. NULL past n = 185 (p(n) > 2^40).
-- Example: record_key(3, 1) = 3298534883329, the key of (2,1), part_key([2,1]).
CREATE OR REPLACE MACRO record_key(n_, ordinal_) AS
    CASE WHEN ordinal_ IS NULL AND n_ <= 405 THEN error(old_store_message())
         WHEN n_ <= 185 THEN (n_::BIGINT << 40) | ordinal_ END;

-- verify_subject(n): the records a follower statement checks in this pass of `partgames
-- verify`, which sets the variables subject_min_n and subject_max_n per chunk of n (the views
-- then hold n <= subject_max_n: the followers of a subject lie at smaller n). Ad-hoc SQL sets
-- neither and sees every record.
CREATE OR REPLACE MACRO verify_subject(n_) AS
    n_ BETWEEN coalesce(getvariable('subject_min_n'), 0) AND coalesce(getvariable('subject_max_n'), 32767);

-- lower_covers(view, lo, hi) = the covering pairs λ ⋖ β of Young's lattice among the records of the
-- view (or CTE) named `view`: each record β with lo <= n <= hi and verify_subject(n) beside the
-- record λ of each β with one corner cell removed. A view of several games' records names each
-- record's game in a column `game`, and a record covers the records of its own game only.
-- Columns game (the column's, or the view's name), n, parts, height (β's) and smaller,
-- smaller_height (λ's). Example: on a store of king n <= 3, β = [2,1] has the rows with smaller
-- [1,1] and [2].
CREATE OR REPLACE MACRO lower_covers(view_, lo_, hi_) AS TABLE
    WITH records_ AS NOT MATERIALIZED (
        -- a view without a column game gets one, NULL, from the empty side of the union
        SELECT coalesce(game, view_) AS game, n, ordinal, parts, height
        FROM (FROM query_table(view_) UNION ALL BY NAME SELECT NULL::VARCHAR AS game WHERE false)
    )
    SELECT c_.game, c_.n, c_.parts, c_.height, s_.parts AS smaller, s_.height AS smaller_height
    FROM (
        SELECT game, n, parts, height,
               list_filter(list_transform(parts, lambda x_, k_: CASE WHEN k_ = i_ THEN x_ - 1 ELSE x_ END),
                           lambda x_: x_ > 0)::SMALLINT[] AS smaller
        FROM (SELECT game, n, parts, height, unnest(range(1, len(parts) + 1)) AS i_ FROM records_
              WHERE n BETWEEN lo_ AND hi_ AND verify_subject(n))
        WHERE i_ = len(parts) OR parts[i_] > parts[i_ + 1]
    ) AS c_
    JOIN records_ AS s_ ON s_.game = c_.game AND record_key(s_.n, s_.ordinal) = part_key(c_.smaller);

-- witness_check(witnesses) = the witnesses of chess.thm4_15 (the CTE named `witnesses`, as
-- thm4_15_witnesses returns them) that are wrong: their record (of the view king, queen or rook)
-- has the property or another pair, y is no move from x, y is terminal, or a move from y reaches
-- a position with the claimed pair. King, queen and rook moves (docs/definitions.md §2.2). One
-- scan of the three games' records finds the witnesses' and y's followers'.
CREATE OR REPLACE MACRO witness_check(witnesses_) AS TABLE
    WITH ymoves AS (
        SELECT game, parts, y, unnest(CASE game
            WHEN 'king' THEN [[0, 1], [1, 0], [1, 1]]
            WHEN 'queen' THEN list_concat(list_transform(range(1, len(y)), lambda a: [a, 0]), list_transform(range(1, y[1]), lambda b: [0, b]), list_transform(range(1, least(len(y), y[1])), lambda k: [k, k]))
            WHEN 'rook' THEN list_concat(list_transform(range(1, len(y)), lambda a: [a, 0]), list_transform(range(1, y[1]), lambda b: [0, b]))
        END) AS mv
        FROM query_table(witnesses_) WHERE y IS NOT NULL
    ),
    ychildren AS (
        SELECT game, parts, list_filter(list_transform(y[mv[1] + 1:], lambda x: x - mv[2]), lambda x: x > 0)::SMALLINT[] AS child
        FROM ymoves
    ),
    wanted AS (
        SELECT game, parts::SMALLINT[] AS parts FROM query_table(witnesses_)
        UNION SELECT game, child FROM ychildren
    ),
    found AS (
        SELECT r.* FROM (
            SELECT 'king' AS game, n, parts, sg, sg_misere, domestic, returnable FROM king
            UNION ALL SELECT 'queen' AS game, n, parts, sg, sg_misere, domestic, returnable FROM queen
            UNION ALL SELECT 'rook' AS game, n, parts, sg, sg_misere, domestic, returnable FROM rook
        ) AS r SEMI JOIN wanted USING (game, parts)
    ),
    ypairs AS (
        SELECT c.game, c.parts, list(c.child) FILTER (WHERE len(c.child) > 0) AS children,
               list([a.sg, a.sg_misere]) FILTER (WHERE a.sg IS NOT NULL) AS child_pairs
        FROM ychildren AS c LEFT JOIN found AS a ON a.game = c.game AND a.parts = c.child
        GROUP BY c.game, c.parts
    ),
    checked AS (
        SELECT w.game, r.n, r.parts, w.property AS lacks_claimed, w.source, [r.sg, r.sg_misere] AS pair,
               w.pair AS claimed_pair, CASE w.property WHEN 'domestic' THEN r.domestic ELSE r.returnable END AS has_property,
               w.y, w.move,
               w.y IS NOT NULL AND w.y::SMALLINT[] IS DISTINCT FROM
                   list_filter(list_transform(w.parts[w.move[1] + 1:], lambda x: x - w.move[2]), lambda x: x > 0)::SMALLINT[]
                   AS y_not_a_move,
               w.y IS NOT NULL AND coalesce(len(yp.children), 0) = 0 AS y_terminal,
               w.y IS NOT NULL AND list_contains(yp.child_pairs, w.pair::SMALLINT[]) AS y_moves_to_pair,
               yp.child_pairs AS y_child_pairs
        FROM query_table(witnesses_) AS w
        JOIN found AS r ON r.game = w.game AND r.parts = w.parts::SMALLINT[]
        LEFT JOIN ypairs AS yp ON yp.game = w.game AND yp.parts = w.parts
    )
    SELECT * FROM checked
    WHERE has_property OR pair <> claimed_pair OR y_not_a_move OR y_terminal OR coalesce(y_moves_to_pair, false);

-- thm4_15_witnesses(printed) = the witnesses of chess.thm4_15 (impartial-chess.txt, Theorem 4.15,
-- proof) as docs/definitions.md §8.6 corrects them (printed false) or as printed (printed true):
-- game, parts, property ('domestic' or 'returnable', the one the record lacks), its claimed pair
-- [sg, sg_misere], and for a returnable one the move x → y and y.
CREATE OR REPLACE MACRO thm4_15_witnesses(printed_) AS TABLE
    SELECT game, parts, property, pair, y, move, source
    FROM (VALUES
        (false, 'rook', [5, 4, 4, 4], 'domestic', [4, 0], NULL, NULL, 'Theorem 4.15'),
        (false, 'queen', [9, 8, 8, 8, 8], 'domestic', [10, 0], NULL, NULL, 'Theorem 4.15, pair per docs/definitions.md §8.6'),
        (false, 'king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], NULL, NULL, E'Theorem 4.15: G(4\x3B2,2)[0,1]'),
        (false, 'rook', [6, 5, 5, 5, 5], 'returnable', [1, 0], [5, 5, 5, 5], [1, 0], 'Theorem 4.15, pair per docs/definitions.md §8.6'),
        (false, 'queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [1, 0], [11, 10, 10, 10, 10], [12, 0], 'Theorem 4.15, pair per docs/definitions.md §8.6'),
        (false, 'king', [8, 8, 4, 4, 4], 'returnable', [1, 0], [8, 4, 4, 4], [1, 0], E'Theorem 4.15: G(2\x3B3,4)[1,0], docs/definitions.md §8.6'),
        (true, 'rook', [5, 4, 4, 4], 'domestic', [4, 0], NULL, NULL, 'as printed'),
        (true, 'queen', [9, 8, 8, 8, 8], 'domestic', [0, 10], NULL, NULL, 'as printed'),
        (true, 'king', [7, 7, 5, 5, 3, 3, 1, 1], 'domestic', [3, 0], NULL, NULL, 'as printed'),
        (true, 'rook', [6, 5, 5, 5, 5], 'returnable', [0, 1], [5, 5, 5, 5], [1, 0], 'as printed'),
        (true, 'queen', [11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10], 'returnable', [0, 1], [11, 10, 10, 10, 10], [12, 0], 'as printed'),
        (true, 'king', [6, 6, 6, 3, 3, 3, 3], 'returnable', [1, 0], [6, 6, 3, 3, 3, 3], [1, 0], E'as printed: G(2\x3B4,3)')
    ) AS w(printed, game, parts, property, pair, y, move, source)
    WHERE printed = printed_;
