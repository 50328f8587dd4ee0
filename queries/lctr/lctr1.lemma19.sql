-- id: lctr1.lemma19
-- source: lctr-some-results.txt, Lemma 19
-- kind: lemma
-- statement: For a rectangle (n^m) there exist exactly mn distinct partitions reachable from it. Any
--   partition of N which is not a rectangle admits fewer than N distinct partitions reachable from it.
-- covers: lctr; every partition (rectangles: equality; others: strict bound)
-- correction: docs/definitions.md §8.2: reachable positions are counted without λ itself, i.e. states − 1.
-- needs: record
-- domain: SELECT n FROM lctr
SELECT n, parts, distinct_sizes = 1 AS is_rectangle, states - 1 AS reachable_without_self
FROM lctr
WHERE CASE WHEN distinct_sizes = 1 THEN states - 1 <> n ELSE states - 1 >= n END
