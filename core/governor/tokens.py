"""Token counting for envelopes: the ``TokenCounter`` contract, the registry plugins fill, and
the count of a whole message list with its framing.

Counters are plugins (``register_token_counters``): exact ones are a model's own tokenizer (and
say which models with ``counts_for``); the estimator never under-counts. ``choose_counter`` picks
the one for the models an envelope goes to. The budget of an envelope is a hard limit on
``count_messages``: every message's content and name, its framing (``per_message``) and the
tokens that prime the reply (``per_reply``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctx.core.errors import ConfigError
from ctx.core.runtime import registered_objects

if TYPE_CHECKING:
    from ctx.core.runtime import PluginHost, Settings


@dataclass(frozen=True)
class TokenCounter:
    """``count(text)`` returns the tokens of ``text`` alone. ``exact`` says whether it is the
    model's own tokenizer; an inexact counter must never count fewer tokens than a model would.
    ``per_message`` is what one chat message costs beyond its content and name (role, separators;
    OpenAI's chat format: 3, plus 1 for a name), ``per_reply`` what primes the answer (3)."""

    name: str
    count: Callable[[str], int]
    exact: bool
    per_message: int = 4
    per_reply: int = 3
    description: str = ""
    #: lower is preferred by ``governor.token_counter = auto`` among counters that are available
    preference: int = 100
    #: None when the counter can be used, else why not (a missing file, package or encoding)
    unavailable: Callable[[], str | None] = lambda: None
    #: whether this is the tokenizer of the model named so (``auto`` picks it for that model)
    counts_for: Callable[[str], bool] = lambda model: False


@dataclass(frozen=True)
class CounterChoice:
    """The counter for the ``models`` an envelope may go to, and, when ``auto`` fell back to an
    inexact counter because a model's tokenizer is not known, why (else None)."""

    counter: TokenCounter
    models: tuple[str, ...]
    fallback: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "counter": self.counter.name,
            "exact": self.counter.exact,
            "models": list(self.models),
            "fallback": self.fallback,
        }


class CountMemo:
    """A counter's counts of texts seen recently (a bounded LRU keyed by the text itself, so a
    count is never another text's)."""

    def __init__(self, count: Callable[[str], int], size: int = 5_000) -> None:
        self._count = count
        self._size = size
        self._memo: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, text: str) -> int:
        key = text
        with self._lock:
            found = self._memo.get(key)
            if found is not None:
                self._memo.move_to_end(key)
                return found
        n = self._count(text)
        with self._lock:
            self._memo[key] = n
            if len(self._memo) > self._size:
                self._memo.popitem(last=False)
        return n


def _check(counter: TokenCounter) -> str | None:
    if not counter.name or not callable(counter.count):
        return "a token counter needs a name and a callable count"
    if counter.per_message < 0 or counter.per_reply < 0:
        return f"token counter {counter.name!r}: framing costs must not be negative"
    return None


def token_counters(host: PluginHost, settings: Settings) -> dict[str, TokenCounter]:
    """Every registered counter by name (plugins get ``settings`` to read their own);
    malformed or duplicate ones stop start-up."""
    return registered_objects(
        host,
        "register_token_counters",
        TokenCounter,
        name=lambda c: c.name,
        what="token counter",
        check=_check,
        arguments={"settings": settings},
    )


def choose_counter(
    counters: Mapping[str, TokenCounter], wanted: str, models: Sequence[str] = ()
) -> CounterChoice:
    """The counter named ``wanted``; with ``auto`` each model's own (the preferred available
    exact counter that ``counts_for`` it), or, when a model has none or no model is known, the
    preferred inexact counter (the estimator), saying why. Models with different tokenizers get
    a counter that never counts fewer tokens than either."""
    models = tuple(dict.fromkeys(models))
    if wanted != "auto":
        counter = counters.get(wanted)
        if counter is None:
            known = ", ".join(sorted(counters)) or "none"
            raise ConfigError(f"unknown token counter {wanted!r}; counters: {known}")
        why = counter.unavailable()
        if why:
            raise ConfigError(f"token counter {wanted!r} cannot be used: {why}")
        return CounterChoice(counter, models)
    # availability is asked only of the counters a model needs: it may load a table
    ordered = sorted(counters.values(), key=lambda c: (c.preference, c.name))
    own: dict[str, TokenCounter] = {}
    unknown = []
    for model in models or ("",):  # no model: only a counter for any model (an operator's) fits
        found = next(
            (c for c in ordered if c.exact and c.counts_for(model) and c.unavailable() is None),
            None,
        )
        if found is None:
            unknown.append(model)
        else:
            own.setdefault(found.name, found)
    if not unknown:
        return CounterChoice(upper_bound(list(own.values())), models)
    estimators = [c for c in ordered if not c.exact and c.unavailable() is None]
    if not estimators:
        raise ConfigError("no token counter is available (the built-in plugin 'tokens' is off?)")
    if models:
        why = f"no tokenizer is known for {', '.join(map(repr, unknown))}"
    else:
        why = "no model is known (no backend serves the role and the caller named none)"
    return CounterChoice(estimators[0], models, why)


def upper_bound(counters: Sequence[TokenCounter]) -> TokenCounter:
    """One counter, or one that counts what the most expensive of several counts (for an
    envelope that may go to models with different tokenizers)."""
    if len(counters) == 1:
        return counters[0]
    parts = tuple(sorted(counters, key=lambda c: c.name))

    def count(text: str) -> int:
        return max(c.count(text) for c in parts)

    return TokenCounter(
        name="+".join(c.name for c in parts),
        count=count,
        exact=False,
        per_message=max(c.per_message for c in parts),
        per_reply=max(c.per_reply for c in parts),
        description="The most any of " + ", ".join(c.name for c in parts) + " counts.",
    )


def message_tokens(counter: TokenCounter, message: Mapping[str, Any]) -> int:
    """One message's cost: its content, its name and its framing."""
    content = message.get("content") or ""
    total = counter.per_message + counter.count(str(content))
    if message.get("name"):
        total += 1 + counter.count(str(message["name"]))
    return total


def count_messages(counter: TokenCounter, messages: Sequence[Mapping[str, Any]]) -> int:
    """What a message list costs a model: every message and the reply's priming."""
    return counter.per_reply + sum(message_tokens(counter, m) for m in messages)
