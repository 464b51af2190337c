"""The reference tokenizers, shared by the token-counter tests (``token_references`` here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# tests/ is not a package: this folder goes on the path, so `import token_references` works.
sys.path.insert(0, str(Path(__file__).resolve().parent))

import token_references  # (from the folder just put on the path)


@pytest.fixture(scope="session")
def references() -> dict[str, token_references.Reference]:
    """Every reference tokenizer available here; the test skips when there is none."""
    found = token_references.references()
    if not found:
        pytest.skip(f"no reference tokenizer here: {token_references.MISSING}")
    return found
