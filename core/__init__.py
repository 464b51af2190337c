"""ctx mechanism core: database, migrations, settings, auth, blocks, retrieval and the plugin host.

Nothing here imports ``ctx.plugins``; built-in plugins are known only by module name.
"""
