"""Tournaments: their running (rounds, pairing, standings) and their routes and pages.

May use play, players and the store; nothing below uses it.
"""
