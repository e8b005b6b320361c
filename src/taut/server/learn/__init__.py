"""Learning in the browser: flash cards, word practice and tutorials.

May use play's frames and the store; no other domain uses it.
"""
