"""Package facades that import on first use.

A facade (``ctx.core``, each capability package, ``ctx.ui``, ``ctx.ui.cli``) re-exports names from the modules
behind it. Importing them all eagerly costs about a second (psycopg, numpy, the web framework), paid by
every ``ctx`` invocation, the agent hooks included, which run on every prompt. So a facade
declares its imports once, under ``if TYPE_CHECKING:`` (type checkers and readers see them as
usual), and hands its module ``__getattr__`` to ``lazy_exports``, which reads those same import
statements from the facade's source and imports a name's module when the name is first used.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _declared(source: str) -> dict[str, tuple[str, str]]:
    """``name -> (module, attribute)`` of every ``from X import a as b`` under TYPE_CHECKING."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
                for alias in stmt.names:
                    found[alias.asname or alias.name] = (stmt.module, alias.name)
    return found


def lazy_exports(
    package: str, file: str, namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the facade ``package`` whose source is ``file``; a name
    once loaded is kept in ``namespace`` (the module's globals), so it costs nothing again."""
    declared = _declared(Path(file).read_text(encoding="utf-8"))

    def getattr_(name: str) -> Any:
        try:
            module, attribute = declared[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        if module == package:  # ``from pkg import submodule``
            value = importlib.import_module(f"{package}.{attribute}")
        else:
            value = getattr(importlib.import_module(module), attribute)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(declared))

    return getattr_, dir_
