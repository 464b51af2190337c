"""German words for the deterministic temporal parser ("letzten Dienstag", "vor 3 Tagen", "KW 12")."""

from __future__ import annotations

import re
from collections.abc import Callable

from ctx.core import Lexicon, TokSpec, build_matchers, hookimpl
from ctx.plugins.temporal.common import forms, indexed, negatives, phrases, tok

_WEEKDAYS = ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag")
_MONTHS = (
    ("januar", "jänner"), ("februar",), ("märz", "maerz"), ("april",), ("mai",), ("juni",),
    ("juli",), ("august",), ("september",), ("oktober",), ("november",), ("dezember",),
)  # fmt: skip


def _inflected(stem: str, endings: str = "e en er es em") -> tuple[str, ...]:
    return tuple(stem + e for e in endings.split())


WORDS: dict[str, TokSpec] = {
    **indexed("wd", [(w,) for w in _WEEKDAYS]),
    **indexed("wds", [(w + "s",) for w in _WEEKDAYS]),
    **indexed("mon", _MONTHS, start=1),
    **forms(tok("kw", 0), "heute", "heut"),
    **forms(tok("kw", -1), "gestern"),
    **forms(tok("kw", -2), "vorgestern"),
    **forms(tok("kw", 1), "morgen"),
    **forms(tok("kw", 2), "übermorgen", "uebermorgen"),
    **forms(tok("rel", -1), *_inflected("letzt"), *_inflected("vorig"), *_inflected("vergangen")),
    **forms(tok("rel", -2), *_inflected("vorletzt")),
    **forms(tok("rel", 0), *_inflected("dies"), "diese"),
    **forms(tok("rel", 1), *_inflected("nächst"), *_inflected("naechst"), *_inflected("kommend")),
    **forms(tok("rel", 2), *_inflected("übernächst"), *_inflected("uebernaechst")),
    **forms(tok("unit", "day"), "tag", "tage", "tagen", "tages"),
    **forms(tok("unit", "week"), "woche", "wochen"),
    **forms(tok("unit", "month"), "monat", "monate", "monaten", "monats"),
    **forms(tok("unit", "quarter"), "quartal", "quartale", "quartalen", "quartals"),
    **forms(tok("unit", "year"), "jahr", "jahre", "jahren", "jahres"),
    **forms(tok("seg", "start"), "anfang", "anfangs", "beginn"),
    **forms(tok("seg", "mid"), "mitte"),
    **forms(tok("seg", "end"), "ende"),
    **forms(tok("seg", "start") + tok("unit", "month"), "monatsanfang", "monatsbeginn"),
    **forms(tok("seg", "mid") + tok("unit", "month"), "monatsmitte"),
    **forms(tok("seg", "end") + tok("unit", "month"), "monatsende"),
    **forms(tok("seg", "start") + tok("unit", "week"), "wochenanfang", "wochenbeginn"),
    **forms(tok("seg", "mid") + tok("unit", "week"), "wochenmitte"),
    **forms(tok("seg", "start") + tok("unit", "year"), "jahresanfang", "jahresbeginn"),
    **forms(tok("seg", "end") + tok("unit", "year"), "jahresende"),
    **forms(tok("tod", 9), "morgens"),
    **forms(tok("tod", 10), "vormittag", "vormittags"),
    **forms(tok("tod", 12), "mittag", "mittags"),
    **forms(tok("tod", 15), "nachmittag", "nachmittags"),
    **forms(tok("tod", 19), "abend", "abends"),
    **forms(tok("tod", 23), "nacht", "nachts"),
    **forms(tok("weekend"), "wochenende", "wochenendes", "wochenenden"),
    **forms(tok("since"), "seit", "seitdem"),
    **forms(tok("until"), "bis"),
    **forms(tok("from"), "von", "vom", "ab"),
    **forms(tok("between"), "zwischen"),
    **forms(tok("and"), "und"),
    **forms(tok("or"), "oder"),
    **forms(tok("before"), "vor"),
    **forms(tok("in"), "in", "innerhalb"),
    **forms(tok("num", 1), "ein", "eine", "einer", "einem", "einen", "eins"),
    **indexed(
        "num",
        [
            (w,)
            for w in (
                "zwei",
                "drei",
                "vier",
                "fünf",
                "sechs",
                "sieben",
                "acht",
                "neun",
                "zehn",
                "elf",
                "zwölf",
            )
        ],
        start=2,
    ),
    **indexed("ord", [_inflected(w) for w in ("erst", "zweit", "dritt", "viert")], start=1),
    **forms(tok("cw"), "kw", "kalenderwoche"),
    **forms(tok("hol", "christmas_days"), "weihnachten"),
    **forms(tok("hol", "christmas_eve"), "heiligabend"),
    **forms(tok("hol", "new_years_eve"), "silvester"),
    **forms(tok("hol", "new_year"), "neujahr"),
    **forms(tok("hol", "easter_days"), "ostern"),
    **forms(tok("hol", "easter"), "ostersonntag"),
    **forms(tok("hol", "easter_monday"), "ostermontag"),
    **forms(tok("hol", "good_friday"), "karfreitag"),
    **forms(tok("hol", "pentecost"), "pfingsten"),
    **forms(tok("hol", "whit_monday"), "pfingstmontag"),
    **forms(tok("hol", "ascension"), "himmelfahrt"),
    **forms(tok("hol", "corpus_christi"), "fronleichnam"),
    **forms(tok("hol", "carnival_monday"), "rosenmontag"),
    **forms(tok("hol", "ash_wednesday"), "aschermittwoch"),
    **forms(tok("hol", "st_nicholas"), "nikolaus", "nikolaustag"),
    **forms(tok("hol", "all_saints"), "allerheiligen"),
    **forms(tok("hol", "reformation"), "reformationstag"),
    **forms(tok("hol", "halloween"), "halloween"),
    **forms(tok("hol", "valentines"), "valentinstag"),
    **forms(tok("hol", "mothers_day"), "muttertag"),
}

# "morgen" is tomorrow, but after a day ("gestern Morgen") or "am"/"jeden" it is the morning.
_MORNING = tok("tod", 9)
_DAY_WORDS: dict[str, TokSpec] = {
    **{w: WORDS[w] for w in ("heute", "gestern", "vorgestern", "morgen", "übermorgen")},
    **{w: WORDS[w] for w in _WEEKDAYS},
}

PHRASES: dict[tuple[str, ...], TokSpec] = {
    **{(day, "morgen"): spec + _MORNING for day, spec in _DAY_WORDS.items()},
    **{(day, "früh"): spec + tok("tod", 7) for day, spec in _DAY_WORDS.items()},
    **phrases(
        {
            "am morgen": _MORNING,
            "jeden morgen": _MORNING,
            "heute nacht": tok("kw", 0) + tok("tod", 23),
            "tag der arbeit": tok("hol", "labour_day"),
            "tag der deutschen einheit": tok("hol", "german_unity"),
            "erster mai": tok("hol", "labour_day"),
            "zwischen den jahren": tok("hol", "between_years"),
            "erster weihnachtstag": tok("hol", "christmas"),
            "zweiter weihnachtstag": tok("hol", "boxing_day"),
            "1 weihnachtstag": tok("hol", "christmas"),
            "2 weihnachtstag": tok("hol", "boxing_day"),
        }
    ),
    **negatives(
        "guten morgen", "guten abend", "gute nacht", "guten tag", "schönen tag",
        "schönes wochenende", "tag und nacht", "seit jahren", "seit langem", "bis dann",
        "bis später", "bis bald", "bis morgen früh",
    ),
}  # fmt: skip

RECURRENCE = frozenset(
    {"immer", "jeden", "jede", "jedes", "jeweils", "regelmäßig", "regelmaessig", "wöchentlich",
     "woechentlich", "monatlich", "täglich", "taeglich", "jährlich", "jaehrlich", "quartalsweise",
     "meistens", "morgens", "vormittags", "mittags", "nachmittags", "abends", "nachts"}
    | {w + "s" for w in _WEEKDAYS}
)  # fmt: skip

LEXICON = Lexicon(
    language="de",
    words=WORDS,
    phrases=PHRASES,
    fuzzy={w: WORDS[w] for w in ("gestern", "vorgestern", "übermorgen", "morgen")},
    fuzzy_exclude=frozenset({"gesten", "gestirn", "morden", "morgan", "mergen", "moregn"}),
    fillers=frozenset(
        {
            "der",
            "die",
            "das",
            "des",
            "dem",
            "den",
            "am",
            "im",
            "um",
            "an",
            "jeden",
            "jede",
            "jedes",
            "zum",
            "zur",
        }
    ),
    ambiguous_months=frozenset({8}),
    month_context=frozenset(
        {
            "im",
            "in",
            "seit",
            "bis",
            "von",
            "ab",
            "anfang",
            "mitte",
            "ende",
            "letzten",
            "nächsten",
            "diesen",
            "vor",
            "nach",
            "und",
            "oder",
            "zwischen",
            "jeden",
            "vom",
        }
    ),
    time_context=frozenset({"am", "jeden", "gegen", "in", "zur"}),
    past_words=frozenset(
        {
            "war",
            "waren",
            "warst",
            "ging",
            "hatte",
            "hatten",
            "wollte",
            "musste",
            "wurde",
            "konnte",
            "sollte",
            "machte",
            "fand",
            "gab",
            "kam",
            "nahm",
            "lief",
            "fiel",
            "tat",
            "sagte",
            "sah",
            "wusste",
            "stand",
            "lag",
            "blieb",
            "schrieb",
            "las",
            "traf",
            "begann",
            "sprach",
            "fuhr",
            "zog",
            "hielt",
            "rief",
            "verlor",
            "besprachen",
            "entschieden",
        }
    ),
    future_words=frozenset(
        {
            "werde",
            "werden",
            "wird",
            "wirst",
            "plane",
            "planen",
            "geplant",
            "soll",
            "sollen",
            "steht",
            "demnächst",
            "bald",
        }
    ),
    strong_past=frozenset(
        {
            "letzten",
            "letzte",
            "letztem",
            "letzter",
            "letztes",
            "vorigen",
            "vorige",
            "voriger",
            "vergangenen",
            "vergangene",
            "vergangener",
            "vergangenes",
        }
    ),
    strong_future=frozenset(
        {
            "nächsten",
            "nächste",
            "nächster",
            "nächstes",
            "nächstem",
            "kommenden",
            "kommende",
            "kommender",
            "kommendes",
        }
    ),
    future_phrases=("habe vor", "hab vor", "treffe ich", "muss ich", "müssen wir"),
    perfect_aux=frozenset(
        {
            "habe",
            "hab",
            "hat",
            "haben",
            "hatte",
            "hatten",
            "bin",
            "ist",
            "sind",
            "seid",
            "hast",
            "habt",
        }
    ),
    participle=re.compile(r"(ab|an|auf|aus|bei|ein|mit|nach|um|vor|weg|zu|über|unter)?ge\w+(t|en)"),
    participles=frozenset(
        {
            "gewesen",
            "begonnen",
            "verloren",
            "besprochen",
            "entschieden",
            "vergessen",
            "bekommen",
            "erledigt",
            "deployed",
            "worden",
        }
    ),
    separable_future=(("steht", "an"), ("findet", "statt"), ("fällt", "aus")),
    separable_blockers=frozenset({"der", "die", "das", "dem", "den", "des", "einer", "einem"}),
    recurrence_words=RECURRENCE,
    intent_words=frozenset(
        {
            "heute",
            "heut",
            "gestern",
            "morgen",
            "vorgestern",
            "übermorgen",
            "woche",
            "wochen",
            "monat",
            "monate",
            "jahr",
            "jahre",
            "wochenende",
            "neulich",
            "kürzlich",
            "demnächst",
            "bald",
            "letzten",
            "letzte",
            "nächsten",
            "nächste",
            "vorigen",
            "kommenden",
            "seit",
            "anfang",
            "mitte",
            "ende",
            "abend",
            "wann",
            "quartal",
            "früher",
            "später",
            "datum",
            "tag",
            "tagen",
            *_WEEKDAYS,
            *(w + "s" for w in _WEEKDAYS),
            *(m for group in _MONTHS for m in group),
        }
    ),
    stopwords=frozenset(
        {
            "der",
            "die",
            "das",
            "und",
            "oder",
            "steht",
            "findet",
            "gibt",
            "welches",
            "welche",
            "verwenden",
            "was",
            "wer",
            "wir",
            "ich",
            "ist",
            "war",
            "haben",
            "hat",
            "habe",
            "am",
            "im",
            "um",
            "mit",
            "von",
            "zu",
            "auf",
            "für",
            "letzten",
            "nächsten",
            "wann",
            "wie",
            "ein",
            "eine",
            "nicht",
            "seit",
            "vor",
        }
    ),
)


@hookimpl
def register_temporal_matchers(register: Callable[..., None]) -> None:
    for matcher in build_matchers(LEXICON):
        register(matcher)
