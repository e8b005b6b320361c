"""Adapters that expose taut's games to other frameworks.

Each adapter lives in its own module and needs the ``interop`` extra
(``pip install 'taut[interop]'``): ``taut.interop.pettingzoo`` (parallel and AEC
environments), ``taut.interop.gymnasium`` (one seat against fixed agents) and
``taut.interop.openspiel`` (registers every game with pyspiel). The shared observation
encoding, built from one seat's view only, is in ``taut.interop.encoding``.
"""
