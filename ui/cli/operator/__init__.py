"""Local commands (the operator's): they work on this machine's database and files and need neither a running
ctxd nor a key (whoever can read the database is its operator): ``init``, ``migrate``,
``doctor``, ``worker``, keys, settings, types, plugins, backends, secrets, embeddings, OAuth
clients and the temporal parser. Each builds the App (``ctx.ui.cli.common.opened_app``); the
commands that talk to ctxd live one level up and never do.
"""
