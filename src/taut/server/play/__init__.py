"""Live play: a game at the server, its table, clocks, computer seats, frames and socket.

May use the store and the shared answer shapes; knows nothing of players' accounts,
ratings, tournaments or pages (they use play, never the other way round).
"""
