"""Rope: a toy game that lives in this folder alone, to show what one folder buys a game."""
