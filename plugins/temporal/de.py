"""German words for the deterministic temporal parser ("letzten Dienstag", "vor 3 Tagen", "KW 12")."""

from __future__ import annotations

import re
from collections.abc import Callable

from ctx.core import GERMAN_STOPWORDS, Lexicon, TokSpec, build_matchers, hookimpl
from ctx.plugins.temporal.cascade_extra import RULES
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
    # abbreviations, and the genitive ("Mitte des Februars")
    **indexed(
        "mon",
        [
            ("jän",),
            ("feb", "febr", "februars"),
            ("mrz", "märzes"),
            ("apr", "aprils"),
            (),
            ("jun", "junis"),
            ("jul", "julis"),
            ("aug", "augusts"),
            ("sep", "sept", "septembers"),
            ("okt", "oktobers"),
            ("nov", "novembers"),
            ("dez", "dezembers"),
        ],
        start=1,
    ),
    # "Maiwoche", "Septemberwochenende": a week or weekend of that month
    **{
        f"{m}woche": tok("unit", "week") + tok("mon", n)
        for n, group in enumerate(_MONTHS, start=1)
        for m in group
    },
    **{
        f"{m}wochenende": tok("weekend") + tok("mon", n)
        for n, group in enumerate(_MONTHS, start=1)
        for m in group
    },
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
    **forms(tok("unit", "hour"), "stunde", "stunden"),
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
    **forms(tok("half"), "hälfte", "haelfte"),
    **forms(tok("half") + tok("unit", "month"), "monatshälfte", "monatshaelfte"),
    **forms(
        tok("half") + tok("unit", "year"),
        "jahreshälfte",
        "jahreshaelfte",
        "halbjahr",
        "halbjahres",
        "halbjahrs",
    ),
    **{
        f"{m}{h}": tok("half") + tok("mon", n)
        for n, group in enumerate(_MONTHS, start=1)
        for m in group
        for h in ("hälfte", "haelfte")
    },
    **forms(tok("part", "before"), "bisher", "bislang"),
    **forms(tok("part", "after"), "rest", "später"),
    **forms(tok("around"), "herum", "rum"),
    **forms(tok("after"), "nach"),
    **forms(tok("num", 3), "paar", "einige", "einigen", "mehrere", "mehreren"),
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
    **forms(tok("in"), "in", "innerhalb", "binnen"),
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
                "dreizehn",
                "vierzehn",
                "fünfzehn",
                "sechzehn",
                "siebzehn",
                "achtzehn",
                "neunzehn",
                "zwanzig",
            )
        ],
        start=2,
    ),
    **forms(tok("num", 30), "dreißig", "dreissig"),
    **indexed(
        "ord", [_inflected(w) for w in ("erst", "zweit", "dritt", "viert", "fünft")], start=1
    ),
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
    **forms(tok("hol", "ascension"), "vatertag", "herrentag", "männertag"),
    **forms(tok("hol", "repentance_day"), "bußtag", "busstag"),
    **forms(tok("hol", "dead_sunday"), "totensonntag", "ewigkeitssonntag"),
    **forms(tok("hol", "remembrance_sunday_de"), "volkstrauertag"),
    **forms(tok("hol", "advent_season"), "adventszeit", "vorweihnachtszeit"),
    **forms(tok("hol", "childrens_day_de"), "weltkindertag"),
    **forms(tok("hol", "womens_day"), "frauentag", "weltfrauentag"),
    **forms(tok("hol", "harvest_festival"), "erntedank", "erntedankfest"),
    **forms(tok("hol", "st_martin"), "martinstag"),
    **forms(tok("hol", "weiberfastnacht"), "weiberfastnacht", "altweiber"),
    **forms(
        tok("hol", "shrove_tuesday"), "faschingsdienstag", "fastnachtsdienstag", "veilchendienstag"
    ),
    **forms(tok("hol", "carnival"), "fasching", "karneval", "fastnacht"),
    **forms(tok("hol", "palm_sunday"), "palmsonntag"),
    **forms(tok("hol", "holy_week"), "karwoche"),
    **forms(tok("hol", "maundy_thursday"), "gründonnerstag", "gruendonnerstag"),
    **forms(tok("hol", "holy_saturday"), "karsamstag"),
    **forms(tok("hol", "easter_weekend"), "osterwochenende"),
    **forms(tok("hol", "lent"), "fastenzeit"),
    **forms(tok("hol", "pentecost_sunday"), "pfingstsonntag"),
    **forms(tok("hol", "pentecost_weekend"), "pfingstwochenende"),
    **forms(tok("hol", "epiphany"), "dreikönigstag", "dreikönig", "dreikoenigstag"),
    **forms(tok("hol", "year_end_holidays"), "weihnachtsferien"),
    **forms(tok("hol", "year_change"), "jahreswechsel", "jahreswende"),
    **forms(tok("hol", "new_year"), "neujahrstag"),
}

# "morgen" is tomorrow, but after a day ("gestern Morgen") or "am"/"jeden" it is the morning.
_MORNING = tok("tod", 9)
_DAY_WORDS: dict[str, TokSpec] = {
    **{w: WORDS[w] for w in ("heute", "gestern", "vorgestern", "morgen", "übermorgen")},
    **{w: WORDS[w] for w in _WEEKDAYS},
}

_HOLIDAY_WORDS = {w: spec for w, spec in WORDS.items() if spec[0][0] == "hol"}

PHRASES: dict[tuple[str, ...], TokSpec] = {
    **{("um", w): tok("around") + spec for w, spec in _HOLIDAY_WORDS.items()},
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
            "zwischen den feiertagen": tok("hol", "between_years"),
            "über die feiertage": tok("hol", "year_end_holidays"),
            "während der feiertage": tok("hol", "year_end_holidays"),
            "in der adventszeit": tok("hol", "advent_season"),
            "im advent": tok("hol", "advent_season"),
            "buß und bettag": tok("hol", "repentance_day"),
            "buss und bettag": tok("hol", "repentance_day"),
            "christi himmelfahrt": tok("hol", "ascension"),
            "mariä himmelfahrt": tok("hol", "assumption"),
            "maria himmelfahrt": tok("hol", "assumption"),
            "heilige drei könige": tok("hol", "epiphany"),
            "heiligen drei könige": tok("hol", "epiphany"),
            "drei könige": tok("hol", "epiphany"),
            "sankt martin": tok("hol", "st_martin"),
            "st martin": tok("hol", "st_martin"),
            "erster advent": tok("hol", "advent_1"),
            "ersten advent": tok("hol", "advent_1"),
            "1 advent": tok("hol", "advent_1"),
            "zweiter advent": tok("hol", "advent_2"),
            "zweiten advent": tok("hol", "advent_2"),
            "2 advent": tok("hol", "advent_2"),
            "dritter advent": tok("hol", "advent_3"),
            "dritten advent": tok("hol", "advent_3"),
            "3 advent": tok("hol", "advent_3"),
            "vierter advent": tok("hol", "advent_4"),
            "vierten advent": tok("hol", "advent_4"),
            "4 advent": tok("hol", "advent_4"),
            "rund um": tok("around"),
            "im laufe": tok("part", None),
            "bis jetzt": tok("part", "before"),
            "in acht tagen": tok("in") + tok("num", 1) + tok("unit", "week"),
            "vor acht tagen": tok("before") + tok("num", 1) + tok("unit", "week"),
            "in vierzehn tagen": tok("in") + tok("num", 2) + tok("unit", "week"),
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
    fuzzy_exclude=frozenset(
        {
            "gesten",
            "gestirn",
            "morden",
            "morgan",
            "mergen",
            "moregn",
            # compounds of a holiday's name that name no time
            "osterinsel",
            "osterinseln",
            "osterglocke",
            "osterglocken",
            "pfingstrose",
            "pfingstrosen",
            "pfingstochse",
            "adventsstern",
        }
    ),
    compounds={
        "weihnachts": tok("hol", "christmas_days"),
        "oster": tok("hol", "easter_days"),
        "pfingst": tok("hol", "pentecost"),
        "silvester": tok("hol", "new_years_eve"),
        "neujahrs": tok("hol", "new_year"),
        "advents": tok("hol", "advent_season"),
        "faschings": tok("hol", "carnival"),
        "karnevals": tok("hol", "carnival"),
    },
    plurals=frozenset(
        {
            "stunden",
            "tage",
            "tagen",
            "wochen",
            "monate",
            "monaten",
            "quartale",
            "quartalen",
            "jahre",
            "jahren",
        }
    ),
    rolling_openers=frozenset({"innerhalb", "binnen"}),
    within_words=frozenset({"innerhalb", "binnen"}),
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
    # The German stopwords (the one list; language detection reads it too), and words that mark
    # a German time query but stay out of that list, where they would change what detection
    # answers: "am" and "um" (English words too), "habe", "seit", the modifiers "letzten" /
    # "nächsten" and question verbs ("Was steht ... an?").
    stopwords=GERMAN_STOPWORDS
    | frozenset(
        {
            "am",
            "um",
            "habe",
            "seit",
            "letzten",
            "nächsten",
            "steht",
            "findet",
            "gibt",
            "welches",
            "verwenden",
        }
    ),
)


@hookimpl
def register_temporal_matchers(register: Callable[..., None]) -> None:
    for matcher in [*build_matchers(LEXICON), *build_matchers(LEXICON, RULES)]:
        register(matcher)
