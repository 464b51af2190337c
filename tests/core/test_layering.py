"""The layering rules stay complete as the code grows.

``lint-imports`` (run by ``make lint`` and ``make test``) enforces the contracts in pyproject.toml;
these tests make sure the contracts cover every capability, so a new package cannot slip past
them, and that the public plugin API is importable as documented.
"""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path
from typing import Any

import ctx.core

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS: list[dict[str, Any]] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
    "importlinter"
]["contracts"]


def _core_children() -> tuple[set[str], set[str]]:
    packages, modules = set(), set()
    for info in pkgutil.iter_modules(ctx.core.__path__):
        (packages if info.ispkg else modules).add(info.name)
    return packages, modules


def _contract(contract_id: str) -> dict[str, Any]:
    return next(c for c in CONTRACTS if c["id"] == contract_id)


def test_every_capability_keeps_its_modules_private() -> None:
    packages, _ = _core_children()
    protected = {
        c["protected_modules"][0].removeprefix("ctx.core.").removesuffix(".*")
        for c in CONTRACTS
        if c["type"] == "protected" and c["protected_modules"][0].startswith("ctx.core.")
    }
    assert packages == protected, "add a private-<name> contract for each ctx.core package"
    for name in packages:
        contract = _contract(f"private-{name}")
        assert contract["allowed_importers"] == [f"ctx.core.{name}"]


def test_every_part_of_the_core_has_a_layer() -> None:
    packages, modules = _core_children()
    layered = {
        part.strip() for layer in _contract("core-layers")["layers"] for part in layer.split("|")
    }
    # Core plugins and the CLI entry are modules too, but inside packages; at the top level
    # only these exist.
    assert layered == packages | modules


def test_the_public_plugin_api_is_complete_and_importable() -> None:
    exported = set(ctx.core.__all__)
    for name in exported:
        assert getattr(ctx.core, name) is not None, name
    # What docs/writing-plugins.md promises a plugin author.
    assert {
        "hookimpl",
        "Setting",
        "BlockTypeSpec",
        "Embedder",
        "TemporalMatcher",
        "CtxError",
        "JobHandler",
        "QueryStage",
        "Candidate",
        "BlockWrite",
        "Tool",
        "BackendKind",
        "Reranker",
        "Lexicon",
        "build_matchers",
    } <= exported


def test_no_facade_name_is_also_a_module_of_its_package() -> None:
    """A facade imports names on first use; a function named like a module of its package would
    be replaced by that module as soon as anything imports the module (Python sets a loaded
    submodule on its package), so ``ctx.core.blocks.manage`` could be a module one moment and
    the function the next."""
    import ast
    import importlib

    clashes = []
    for facade in (
        "ctx.core",
        *(f"ctx.core.{p}" for p in _core_children()[0]),
        "ctx.ui",
        "ctx.ui.cli",
    ):
        package = importlib.import_module(facade)
        modules = {info.name for info in pkgutil.iter_modules(package.__path__)}
        source = Path(package.__file__ or "").read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module != facade:
                clashes += [
                    f"{facade}.{a.asname or a.name}"
                    for a in node.names
                    if (a.asname or a.name) in modules
                ]
    assert clashes == []
