"""The deterministic temporal parser: runs the registered matchers in priority order.

Per parse: guess the query's language from the matchers' vocabularies (unless a hint is given), run
that language's cascade first and the others after it, stop at the first match, then apply the
recurrence upgrade ("immer dienstags", "every Monday": only the cyclic dimensions keep weight).
When nothing matches but the text is about time, the result says an LLM fallback would be needed;
the LLM itself is not part of this module (pass ``fallback=`` to plug one in).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from datetime import date
from typing import Any

from ctx.core.errors import PluginError
from ctx.core.runtime import PluginHost, unique_by_name
from ctx.core.temporal.lexicon import normal_word, raw_tokens, word_spans
from ctx.core.temporal.types import (
    FALLBACK_SKIPPED,
    ParseContext,
    TemporalMatcher,
    TemporalResult,
)

Fallback = Callable[[str, ParseContext], TemporalResult | None]

_ISO_IN_TEXT = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
_EMPTY: frozenset[str] = frozenset()
_PUNCTUATION_SPACE = re.compile(r"\s+([?!.,;:])")  # "decide ?" -> "decide?"


def has_temporal_intent(text: str, words: Collection[str]) -> bool:
    """True when ``text`` holds an ISO date or one of ``words`` as a whole token.

    Whole tokens only: "Vorteil" does not contain "vor", "context" not "next".
    """
    if _ISO_IN_TEXT.search(text):
        return True
    return any(token in words for token in raw_tokens(text))


def upgrade_recurrence(result: TemporalResult) -> TemporalResult:
    """Drop the linear weight and rescale the cyclic ones to sum 1; unchanged without cycles."""
    cyclic = {k: v for k, v in result.weights.items() if k != "linear" and v > 0}
    total = sum(cyclic.values())
    if not total:
        return result
    return result.with_updates(weights={k: v / total for k, v in cyclic.items()}, recurring=True)


def _check_matcher(matcher: Any, source: str) -> None:
    for attribute in ("name", "priority", "language", "match"):
        if not hasattr(matcher, attribute):
            raise PluginError(
                f"temporal matcher from {source} has no {attribute!r}: register an object "
                "following ctx.core.TemporalMatcher"
            )


class TemporalParser:
    """Runs ``matchers`` (most specific, i.e. lowest ``priority``, first) over a query."""

    def __init__(self, matchers: Iterable[TemporalMatcher], *, fallback: Fallback | None = None):
        listed = list(matchers)
        seen: set[str] = set()
        for matcher in listed:
            _check_matcher(matcher, "the caller")
            if matcher.name in seen:
                raise PluginError(f"temporal matcher {matcher.name!r} given twice")
            seen.add(matcher.name)
        self._order = {m.name: i for i, m in enumerate(listed)}
        self.matchers: list[TemporalMatcher] = sorted(
            listed, key=lambda m: (m.priority, self._order[m.name])
        )
        self._fallback = fallback
        #: the cascade in run order for each ranking of the languages (a handful at most)
        self._by_ranking: dict[tuple[str, ...], list[TemporalMatcher]] = {}
        self.languages: list[str] = []
        self._vocabulary: dict[str, frozenset[str]] = {}
        self._function_words: dict[str, frozenset[str]] = {}
        self._recurrence: dict[str, frozenset[str]] = {}
        intent: set[str] = set()
        topics: set[str] = set()
        self._time_words: dict[str, frozenset[str]] = {}
        for m in listed:
            topics |= getattr(m, "topic_words", _EMPTY)
            self._time_words[m.language] = self._time_words.get(m.language, _EMPTY) | getattr(
                m, "time_words", _EMPTY
            )
            lang = m.language
            if lang not in self.languages and lang != "*":
                self.languages.append(lang)
            self._vocabulary[lang] = self._vocabulary.get(lang, _EMPTY) | getattr(
                m, "vocabulary", _EMPTY
            )
            self._function_words[lang] = self._function_words.get(lang, _EMPTY) | getattr(
                m, "function_words", getattr(m, "vocabulary", _EMPTY)
            )
            self._recurrence[lang] = self._recurrence.get(lang, _EMPTY) | getattr(
                m, "recurrence_words", _EMPTY
            )
            intent |= getattr(m, "intent_words", _EMPTY)
        self.intent_words = frozenset(intent)
        self.topic_words = frozenset(topics)
        self._all_recurrence = frozenset().union(*self._recurrence.values())

    def has_intent(self, text: str) -> bool:
        return has_temporal_intent(text, self.intent_words)

    def residual(self, text: str) -> str:
        """The words of ``text`` that name no time: the time words of every language, the
        function words of the text's own language, numbers, years and ISO dates left out; holiday
        names kept (a holiday is a topic too). "What did Caroline do last Tuesday?" ->
        "caroline"; "the Christmas party last year" -> "christmas party"."""
        ranked = self.rank_languages(text)
        own = self._function_words.get(ranked[0], _EMPTY) if ranked else _EMPTY
        known = own.union(*self._time_words.values()) - self.topic_words
        return " ".join(
            t for t in raw_tokens(text) if t not in known and not any(ch.isdigit() for ch in t)
        )

    def without_time(self, text: str) -> str:
        """``text`` without the words that name a time (of every language; numbers, years and
        ISO dates too), the rest as written, holiday names kept: what the question asks besides
        its time. "What did we decide last Tuesday?" -> "What did we decide?"; unlike
        ``residual`` it keeps the function words, so a model still reads a question."""
        known = frozenset().union(*self._time_words.values()) - self.topic_words
        out, at = [], 0
        for m in word_spans(text):
            word = normal_word(m.group())
            if word in known or any(ch.isdigit() for ch in word):
                out.append(text[at : m.start()])
                at = m.end()
        out.append(text[at:])
        return _PUNCTUATION_SPACE.sub(r"\1", " ".join("".join(out).split()))

    def rank_languages(self, text: str) -> list[str]:
        """Known languages, most likely first (ties keep registration order)."""
        tokens = raw_tokens(text)
        score = {
            lang: sum(t in self._vocabulary.get(lang, _EMPTY) for t in tokens)
            for lang in self.languages
        }
        return sorted(self.languages, key=lambda lang: -score[lang])

    def _ordered(self, text: str, lang: str | None) -> list[TemporalMatcher]:
        if lang is not None and lang in self.languages:
            return [m for m in self.matchers if m.language in (lang, "*")]
        ranked = tuple(self.rank_languages(text))
        order = self._by_ranking.get(ranked)
        if order is None:
            rank = {lang: i for i, lang in enumerate(ranked)}
            order = sorted(
                self.matchers,
                key=lambda m: (rank.get(m.language, 0), m.priority, self._order[m.name]),
            )
            self._by_ranking[ranked] = order
        return order

    def parse(self, text: str, now: date | None = None, lang: str | None = None) -> TemporalResult:
        """Resolve the time a query refers to; ``now`` defaults to today."""
        ctx = ParseContext(now=now or date.today(), lang=lang)
        if not text.strip():
            return TemporalResult.nothing()
        for matcher in self._ordered(text, lang):
            try:
                result = matcher.match(text, ctx)
            except (ValueError, OverflowError):
                # The phrase names a day outside the calendar ("in 10000 years", "tomorrow" on
                # 9999-12-31): no time this rule can resolve, so let the next rule try.
                continue
            if result is None or not result.matched:
                continue
            result = result.with_updates(matcher=matcher.name, intent=True)
            words = self._recurrence.get(matcher.language) or self._all_recurrence
            if any(t in words for t in raw_tokens(text)):
                result = upgrade_recurrence(result)
            return result
        intent = self.has_intent(text)
        if not intent:
            return TemporalResult.nothing()
        if self._fallback is not None:
            found = self._fallback(text, ctx)
            if found is not None and found.matched:
                return found.with_updates(intent=True, matcher=found.matcher or "fallback")
            return TemporalResult(intent=True, fallback="fallback found nothing")
        return TemporalResult(intent=True, fallback=FALLBACK_SKIPPED)


def parser_from_host(host: PluginHost, *, fallback: Fallback | None = None) -> TemporalParser:
    """Build a parser from every matcher the plugins register through
    ``register_temporal_matchers``. A matcher name registered twice stops with a ``PluginError``
    naming both plugins."""
    registrations = host.registrations("register_temporal_matchers")
    for reg in registrations:
        if not reg.args:
            raise PluginError(f"plugin {reg.plugin} called register() without a matcher")
        _check_matcher(reg.args[0], reg.plugin)
    unique_by_name(registrations, key=lambda reg: reg.args[0].name, what="temporal matcher")
    return TemporalParser([reg.args[0] for reg in registrations], fallback=fallback)
