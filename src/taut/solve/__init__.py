"""Solvers every game may use: two-player zero-sum matrix games (a game's own exact solvers
live in its package)."""
