-- description: Queen P-positions on the boundary of Lemma 3.22 of impartial-chess.txt. The lemma:
--  with a = λ1 − 1 (cells of the first row right of the corner) and b = r − 1 (cells of the first
--  column below it), λ is an N-position when a > 2b or b > 2a. Section 5 asks whether the
--  coefficient 2 can be lowered (for rectangles the golden ratio suffices); showing it cannot needs
--  infinitely many P-positions with a = 2b or b = 2a exactly - the paper gives (3^2) and
--  (9^2, 7^3). This lists every Queen P-position (n >= 2) with slack = 2·min(a, b) − max(a, b)
--  at most 1: slack 0 is the boundary itself, slack 1 the next layer inside. side: 'wide' when
--  a >= b, else 'tall'; transpose = the conjugate (also P: Queen is symmetric); per hull
--  (r rows × λ1 columns), how many partitions with that hull the store holds and how many are P
--  (hulls with r·λ1 above the largest n present are only partly enumerated).
WITH q AS (
    SELECT n, parts, num_parts AS r, largest AS c, largest - 1 AS a, num_parts - 1 AS b,
        2 * least(largest - 1, num_parts - 1) - greatest(largest - 1, num_parts - 1) AS slack,
        sg, sg_misere, conjugate
    FROM queen
    WHERE n >= 2
),
hull AS (
    SELECT r, c,
        count(*) AS hull_partitions,
        count(*) FILTER (WHERE sg = 0) AS hull_p_positions
    FROM q
    WHERE slack BETWEEN 0 AND 1
    GROUP BY r, c
)
SELECT
    q.slack,
    q.n,
    q.parts,
    CASE WHEN q.a >= q.b THEN 'wide' ELSE 'tall' END AS side,
    q.r,
    q.c,
    q.a,
    q.b,
    q.sg,
    q.sg_misere,
    is_rectangle(q.parts) AS rectangle,
    q.conjugate AS transpose,
    h.hull_partitions,
    h.hull_p_positions
FROM q
JOIN hull AS h ON h.r = q.r AND h.c = q.c
WHERE q.sg = 0 AND q.slack BETWEEN 0 AND 1
ORDER BY q.slack, least(q.a, q.b), q.n, side DESC, q.parts DESC
