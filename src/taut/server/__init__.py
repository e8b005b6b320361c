"""The browser front end: ``taut serve`` (HTTP pages, a JSON API and WebSocket play).

Every game, variant and option is played in the browser from its plugin: the server never
names a game. Moves are events in an append-only table (SQLite by default, PostgreSQL by
URL); choices made at the same time are committed by hash before any is revealed; every
message a client receives is built from that client's view of the game.
"""
