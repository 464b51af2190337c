"""Built-in block types, read from the policy file ``ctx/policies/block_types.json``."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources

from ctx.core import hookimpl


@hookimpl
def register_block_types(register: Callable[..., None]) -> None:
    text = resources.files("ctx.policies").joinpath("block_types.json").read_text("utf-8")
    for row in json.loads(text):
        register(row)
