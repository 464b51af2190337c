"""Two-way sync of a repository scope's issues with a forge repository (GitHub first).

The engine (``engine``) knows forges only through the ``Forge`` protocol (``forge``); a forge is a
plugin named in a link row, loaded from the ``ctx.forges`` entry points or the built-in table.
Reconciliation is three-way per field (``merge``): the last synced version is the base, a field
changed on one side is taken from that side, a field changed on both sides differently opens a
conflict record (``state``) and the issue waits until someone picks a side. Remote listings are
incremental (``since`` cursors, ETags), rate limits pause the link and the job resumes after the
reset; webhooks only queue a fetch, so a replayed or forged delivery can never write content.
"""
