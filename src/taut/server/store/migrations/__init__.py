"""The schema's versions, as Alembic revisions (``versions/``), and Alembic's environment.

Run through :mod:`taut.server.store.versions` (``taut db upgrade``, and every server at its
start), never with Alembic's own command line: the connection is handed in.
"""
