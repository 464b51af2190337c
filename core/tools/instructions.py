"""What an MCP client is told at initialize: when to store, how to title and categorise, how to
query. Short on purpose: it sits in every agent's context."""

INSTRUCTIONS = """\
ctx is your long-term memory: knowledge that outlives this session.
- Before answering from memory or repeating earlier work, `query` ctx (natural language; time \
words like "last week" work). `get` a source's id for its full text; `search` finds exact \
names and error messages.
- `store` what is worth keeping: decisions and their reasons, facts learned, procedures that \
worked, lessons from mistakes. Not chit-chat, not what the repository already says.
- One topic per block. Title: specific and searchable ("Postgres backups: nightly pg_dump to \
S3", not "Notes"). Category: a short lowercase area; reuse existing ones (`stats` lists them). \
The same category + title updates a block instead of duplicating it: correct, don't append.
- Content must stand alone: say what, why, and when; include dates for events (occurred_at).
- Never store secrets unless sensitivity is "credentials".
"""
