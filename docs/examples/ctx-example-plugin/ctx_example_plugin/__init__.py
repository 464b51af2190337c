"""An example ctx plugin: a ``meeting-note`` block type, an ``example.greeting`` setting and an
``example-hello`` command.

Importing this package does nothing; ctx loads ``ctx_example_plugin.plugin`` through the ``ctx``
entry point declared in ``pyproject.toml``.
"""

__version__ = "0.1.0"
