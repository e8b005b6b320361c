"""Learning features, layered between the protocol (:mod:`taut.core`) and the games: tile
sets and their TOML files, SVG and PNG safety for their pictures, flash cards and their
FSRS scheduling, and the registry of every game's tile sets.

It may use :mod:`taut.core`; games, agents, the command line and the server may use it.
"""
