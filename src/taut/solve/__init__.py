"""Exact solvers: the Push-Pull duel, the Track Tiles solitaire puzzle."""
