"""One package per game: pure rules, notation, text rendering."""
