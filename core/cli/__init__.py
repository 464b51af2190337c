"""The ``ctx`` command line (typer). ``main.py`` builds the root; each module adds a group."""
