"""``python -m ctx.ui.cli``: the same as the ``ctx`` console script."""

from ctx.ui.cli.root import main

main()
