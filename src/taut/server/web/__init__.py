"""The web application on top: routes of every domain put together, pages, error pages,
templates, static files and the serving process's settings. Nothing imports it but the CLI.
"""
