"""partgames: exhaustive combinatorial game theory on integer partitions."""

__version__ = "0.1.0"
