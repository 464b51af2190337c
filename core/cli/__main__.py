"""``python -m ctx.core.cli``: the same as the ``ctx`` console script."""

from ctx.core.cli.main import main

main()
