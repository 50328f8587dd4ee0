-- description: Slow SetNim's P-positions as a union of classes of simple features (slow-exact-k-nim.txt,
--  Conjecture 1's form; Open Problems 1, 2 and 4). Every feature is of the reduced position r
--  (docs/definitions.md §2.3: a position has its reduced form's outcome): sigma = Σ(r), taken mod M
--  for M = 2..4s (s the number of stacks) and M <= max Σ / 2 (every residue seen over two periods); odd = the number of odd stacks of r; empty = the number
--  of empty stacks; smallest_parity = the parity of the smallest of the s stacks (0 when one is
--  empty). Per game, every choice of features (sigma mod M with each M, then the others, in this
--  order) splits the records into classes (the feature tuples that occur); a choice *describes* the
--  P-positions when every class is all P or all N, and its P-set is then the classes of P-positions
--  (P ⟺ tuple ∈ P-set, on every record). Printed per game: the smallest such description (fewest
--  features, then smallest M, then fewest P-classes, then the order above), or, when none holds,
--  the least impure one (its classes take their majority outcome; impurity = the records it
--  misclassifies). pset lists the P-classes grouped by the first feature (value → values of the
--  others); pset_json the same tuples; sigma_odd = the best description by (sigma mod M, odd)
--  alone, Conjecture 1's form, with its impurity.
-- post: pset_classes
-- features: sigma mod, odd, empty, smallest_parity
SELECT
    game,
    any_value(stacks)::INTEGER AS stacks,
    any_value(moves) AS moves,
    coalesce(list_sum(reduced_parts), 0)::INTEGER AS sigma,
    odd_stacks::INTEGER AS odd,
    (stacks - len(reduced_parts))::INTEGER AS empty,
    CASE WHEN len(reduced_parts) < stacks THEN 0 ELSE reduced_parts[-1] % 2 END::INTEGER AS smallest_parity,
    count(*) AS records,
    count(*) FILTER (WHERE sg = 0) AS p,
    min(n)::INTEGER AS min_n,
    max(n)::INTEGER AS max_n
FROM slownim
GROUP BY game, sigma, odd, empty, smallest_parity
ORDER BY game, sigma, odd, empty, smallest_parity
