-- id: chess.sec3_6_wythoff
-- source: impartial-chess.txt, Section 3.6 (Queen), citing Nivasch
-- kind: observation
-- statement: Queen on the rectangle (c^r) is Wythoff W(c − 1, r − 1). Checked through Wythoff's
--   P-positions: with a ≤ b the two pile sizes, (a, b) is a P-position iff a = ⌊(b − a)·φ⌋,
--   φ = (1 + √5)/2. So SG_Queen(c^r) = 0 iff that holds for {a, b} = {r − 1, c − 1}.
-- covers: queen; rectangles R(r,c), rows and columns included
-- needs: record
-- domain: SELECT n FROM queen WHERE distinct_sizes = 1
SELECT 'queen' AS game, n, parts, num_parts AS r, largest AS c, sg
FROM queen
WHERE distinct_sizes = 1
  AND (sg = 0) <> (least(num_parts, largest) - 1
                   = floor(abs(num_parts - largest) * (1 + sqrt(5)) / 2))
