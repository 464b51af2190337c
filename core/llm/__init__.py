"""Model backends: the kinds of backend plugins provide (wire protocols, in-process runtimes).

A backend row (``context_backends``, issue: LLM backends) names its kind; the kind's factory builds
a client from the row. This package holds the contract and the registry of kinds; backends, roles,
chains and synthesis build on it.
"""

from ctx.core.llm.kinds import BackendFactory, BackendKind, backend_kinds

__all__ = ["BackendFactory", "BackendKind", "backend_kinds"]
