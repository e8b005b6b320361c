"""The database: its tables, its engine over SQLite or PostgreSQL, and a store per domain.

Imports no domain logic: play, players, tournaments and learning read and write through it.
"""
