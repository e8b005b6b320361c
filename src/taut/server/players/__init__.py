"""Players: accounts and sign-in, profile pages, ratings, history, webhooks, calibrations.

May use play's public names and the store; play and the store never use it.
"""
