"""Held-out temporal-expression cases, written without reading the parser.

A second, independent case set for the English/German temporal parser: every
phrase and every expected span was written from the documented conventions only
(ISO weeks starting Monday; rolling "last/past N units" = [now - N, now];
"last week"/"letzte Woche" = the calendar week; plural without a number = 3
units, "couple" = 2; n-th weekday/weekend/week of a month; month halves split at
days-in-month // 2; "N units after X" counted from X's last day and "before"
from its first day; "around X" padded by 3 days, a month by 7; day ranges and
"since"/"until"; fixed and Easter-based holidays for any year, anonymous
Gregorian Easter; German idioms such as "zwischen den Jahren"; a month, holiday
or week number without a year means the nearer occurrence unless the tense
picks one) without looking at the parser's implementation, its tests, or the
first-round case data, and checked only with the standard-library calendar.
Each case is (text, now, start, end): the inclusive first and last day the
phrase means when asked on day `now`; start = end = None means the text names
no time and must stay unmatched.
"""

from __future__ import annotations

from temporal_cases_data import LEAP, NY, SUN, YE, Case, W

GROUPS: dict[str, list[Case]] = {
    "rolling spans": [
        ("what did we ship in the last 3 weeks", W, "2026-03-04", "2026-03-25"),
        ("was war in den letzten zehn Tagen", W, "2026-03-15", "2026-03-25"),
        ("show me notes from the past 6 months", YE, "2026-06-30", "2026-12-31"),
        (
            "Was haben wir in den vergangenen zwei Monaten besprochen?",
            LEAP,
            "2023-12-29",
            "2024-02-29",
        ),
        ("decisions made over the past year", SUN, "2025-06-07", "2026-06-07"),
        ("what's planned for the next two weeks", SUN, "2026-06-07", "2026-06-21"),
        ("Was lief in den letzten Wochen schief?", W, "2026-03-04", "2026-03-25"),
        ("anything from the last few days?", NY, "2026-12-29", "2027-01-01"),
        ("bugs reported within the last week", LEAP, "2024-02-22", "2024-02-29"),
        ("in den kommenden drei Monaten", YE, "2026-12-31", "2027-03-31"),
        ("errors in the last 24 hours", SUN, "2026-06-06", "2026-06-07"),
        ("over the past couple of months", W, "2026-01-25", "2026-03-25"),
    ],
    "part of a period": [
        ("what happened earlier this week", W, "2026-03-23", "2026-03-25"),
        ("anything due later this week?", W, "2026-03-25", "2026-03-29"),
        ("Was steht für den Rest der Woche an?", NY, "2027-01-01", "2027-01-03"),
        ("what have we shipped so far this year", SUN, "2026-01-01", "2026-06-07"),
        ("Was haben wir bisher in diesem Jahr erreicht?", NY, "2027-01-01", "2027-01-01"),
        ("revenue year to date", LEAP, "2024-01-01", "2024-02-29"),
        ("how many incidents so far this month", W, "2026-03-01", "2026-03-25"),
        ("bisher in diesem Monat", YE, "2026-12-01", "2026-12-31"),
        ("so far this quarter", SUN, "2026-04-01", "2026-06-07"),
        ("Umsatz bisher in diesem Quartal", YE, "2026-10-01", "2026-12-31"),
    ],
    "n-th weekday of a month": [
        ("the second Friday in June", W, "2026-06-12", "2026-06-12"),
        ("am ersten Montag im Mai", SUN, "2026-05-04", "2026-05-04"),
        ("the last Friday of May", YE, "2027-05-28", "2027-05-28"),
        ("what did we do on the third Thursday in November", W, "2025-11-20", "2025-11-20"),
        ("Was ist für den letzten Samstag im Oktober geplant?", NY, "2027-10-30", "2027-10-30"),
        ("the first Tuesday of the month", W, "2026-03-03", "2026-03-03"),
        ("am zweiten Mittwoch im Monat", LEAP, "2024-02-14", "2024-02-14"),
        ("what did we discuss on the last Monday of the month", NY, "2026-12-28", "2026-12-28"),
        ("dritter Freitag im September", YE, "2026-09-18", "2026-09-18"),
        ("am ersten Sonntag im Februar 2025", W, "2025-02-02", "2025-02-02"),
    ],
    "halves of a month or year": [
        ("in the first half of May", W, "2026-05-01", "2026-05-15"),
        ("in der zweiten Februarhälfte", LEAP, "2024-02-15", "2024-02-29"),
        ("Termine in der ersten Monatshälfte", YE, "2026-12-01", "2026-12-15"),
        ("in der zweiten Monatshälfte", SUN, "2026-06-16", "2026-06-30"),
        ("roadmap for H1 2025", W, "2025-01-01", "2025-06-30"),
        ("im zweiten Halbjahr", W, "2026-07-01", "2026-12-31"),
        ("in der ersten Jahreshälfte 2027", YE, "2027-01-01", "2027-06-30"),
        ("the second half of the year", SUN, "2026-07-01", "2026-12-31"),
        ("second half of November", YE, "2026-11-16", "2026-11-30"),
        ("in der ersten Novemberhälfte", W, "2025-11-01", "2025-11-15"),
        ("in der zweiten Jahreshälfte", YE, "2026-07-01", "2026-12-31"),
    ],
    "weekends and weeks of a month": [
        ("the first weekend in May", W, "2026-05-02", "2026-05-03"),
        ("am letzten Wochenende im Juni", SUN, "2026-06-27", "2026-06-28"),
        ("what's on the second weekend of December", YE, "2026-12-12", "2026-12-13"),
        ("am dritten Wochenende im Januar", NY, "2027-01-16", "2027-01-17"),
        ("the last weekend of February", LEAP, "2024-02-24", "2024-02-25"),
        ("das letzte Wochenende im Oktober", NY, "2026-10-31", "2026-11-01"),
        ("in der ersten Woche im April", W, "2026-04-01", "2026-04-07"),
        ("the last week of June", SUN, "2026-06-24", "2026-06-30"),
        ("during the second week of March", W, "2026-03-08", "2026-03-14"),
        ("in der dritten Woche im Dezember", YE, "2026-12-15", "2026-12-21"),
    ],
    "offsets from an anchor": [
        ("let's meet a week from Monday", W, "2026-04-06", "2026-04-06"),
        ("morgen in einer Woche", W, "2026-04-02", "2026-04-02"),
        ("gestern vor einer Woche", SUN, "2026-05-30", "2026-05-30"),
        ("heute in acht Tagen", NY, "2027-01-08", "2027-01-08"),
        ("three days after Christmas", YE, "2026-12-28", "2026-12-28"),
        ("zwei Wochen vor Ostern", W, "2026-03-22", "2026-03-22"),
        ("what did we do the day after Thanksgiving", W, "2025-11-28", "2025-11-28"),
        ("die Woche nach Pfingsten", SUN, "2026-05-26", "2026-06-01"),
        ("ten days before New Year's Eve", YE, "2026-12-21", "2026-12-21"),
        ("eine Woche nach dem Tag der Deutschen Einheit", YE, "2026-10-10", "2026-10-10"),
        ("two weeks after May 4", NY, "2027-05-18", "2027-05-18"),
        ("the week after Easter", W, "2026-04-06", "2026-04-12"),
    ],
    "around an anchor": [
        ("what happened around Christmas", W, "2025-12-22", "2025-12-28"),
        ("um Weihnachten herum", YE, "2026-12-21", "2026-12-29"),
        ("rund um Ostern", W, "2026-04-02", "2026-04-09"),
        ("around May 1st", SUN, "2026-04-28", "2026-05-04"),
        ("um den 15. März herum", W, "2026-03-12", "2026-03-18"),
        ("around March", LEAP, "2024-02-23", "2024-04-07"),
        ("rund um den Jahreswechsel", NY, "2026-12-28", "2027-01-04"),
        ("around Thanksgiving", YE, "2026-11-23", "2026-11-29"),
        ("um Pfingsten", SUN, "2026-05-21", "2026-05-28"),
        ("around Easter", NY, "2027-03-25", "2027-03-31"),
    ],
    "ranges inside and across months": [
        ("from the 4th to the 9th of May", W, "2026-05-04", "2026-05-09"),
        ("vom 2. bis 6. Juni", SUN, "2026-06-02", "2026-06-06"),
        ("the offsite is May 4-9", YE, "2027-05-04", "2027-05-09"),
        ("Urlaub vom 28. Mai bis 3. Juni", W, "2026-05-28", "2026-06-03"),
        ("everything since May 7", SUN, "2026-05-07", "2026-06-07"),
        ("seit dem 7. Mai", W, "2025-05-07", "2026-03-25"),
        ("until May 7", W, "2026-03-25", "2026-05-07"),
        ("bis zum 7. Mai", SUN, "2026-06-07", "2027-05-07"),
        ("vom 28. Dezember bis 2. Januar", YE, "2026-12-28", "2027-01-02"),
        ("from March 30 to April 3", LEAP, "2024-03-30", "2024-04-03"),
        ("zwischen dem 10. und 20. Februar 2025", W, "2025-02-10", "2025-02-20"),
    ],
    "holidays": [
        ("Thanksgiving 2025", W, "2025-11-27", "2025-11-27"),
        ("Memorial Day", SUN, "2026-05-25", "2026-05-25"),
        ("what did we do on Labor Day", W, "2025-09-01", "2025-09-01"),
        ("MLK Day 2027", SUN, "2027-01-18", "2027-01-18"),
        ("Buß- und Bettag 2026", W, "2026-11-18", "2026-11-18"),
        ("Fronleichnam", SUN, "2026-06-04", "2026-06-04"),
        ("an Christi Himmelfahrt", W, "2026-05-14", "2026-05-14"),
        ("am ersten Advent", YE, "2026-11-29", "2026-11-29"),
        ("Ostern", LEAP, "2024-03-31", "2024-04-01"),
        ("übers Osterwochenende", NY, "2027-03-26", "2027-03-29"),
        ("Mother's Day", LEAP, "2024-05-12", "2024-05-12"),
        ("Election Day 2026", W, "2026-11-03", "2026-11-03"),
        ("in der Adventszeit", YE, "2026-11-29", "2026-12-24"),
    ],
    "idioms": [
        ("zwischen den Jahren", YE, "2026-12-27", "2026-12-30"),
        ("was haben wir zwischen den Jahren gemacht", W, "2025-12-27", "2025-12-30"),
        ("what did we do over the holidays", NY, "2026-12-24", "2027-01-01"),
        ("über die Feiertage", W, "2025-12-24", "2026-01-01"),
        ("at the turn of the year", LEAP, "2023-12-31", "2024-01-01"),
        ("zum Jahreswechsel", YE, "2026-12-31", "2027-01-01"),
        ("the weekend before last", W, "2026-03-14", "2026-03-15"),
        ("vorletztes Wochenende", NY, "2026-12-19", "2026-12-20"),
        ("the weekend before last", LEAP, "2024-02-17", "2024-02-18"),
        ("over the past fortnight", W, "2026-03-11", "2026-03-25"),
        ("in a fortnight", SUN, "2026-06-21", "2026-06-21"),
    ],
    "ISO weeks": [
        ("what happened in week 12", W, "2026-03-16", "2026-03-22"),
        ("KW 12/2027", W, "2027-03-22", "2027-03-28"),
        ("in der 12. KW", LEAP, "2024-03-18", "2024-03-24"),
        ("2025-W01", SUN, "2024-12-30", "2025-01-05"),
        ("Sprintplanung für KW 12-14", W, "2026-03-16", "2026-04-05"),
        ("Kalenderwoche 40", SUN, "2026-09-28", "2026-10-04"),
        ("Termine in KW 2", YE, "2027-01-11", "2027-01-17"),
        ("week 53", NY, "2026-12-28", "2027-01-03"),
        ("KW 1/2026", YE, "2025-12-29", "2026-01-04"),
        ("kw 50", NY, "2026-12-07", "2026-12-13"),
    ],
    "first-round forms": [
        ("letzten Dienstag", W, "2026-03-24", "2026-03-24"),
        ("in two weeks", W, "2026-04-08", "2026-04-08"),
        ("im März", YE, "2027-03-01", "2027-03-31"),
        ("Anfang April", W, "2026-04-01", "2026-04-10"),
        ("Mitte Mai", LEAP, "2024-05-11", "2024-05-20"),
        ("Ende Juni", SUN, "2026-06-21", "2026-06-30"),
        ("Q3 2025", W, "2025-07-01", "2025-09-30"),
        ("next weekend", SUN, "2026-06-13", "2026-06-14"),
        ("end of next week", NY, "2027-01-08", "2027-01-10"),
        ("since last week", W, "2026-03-16", "2026-03-25"),
        ("Weihnachten letztes Jahr", W, "2025-12-24", "2025-12-26"),
        ("what did we ship last week", NY, "2026-12-21", "2026-12-27"),
    ],
    "not a time": [
        ("half of the budget went to marketing", W, None, None),
        ("we walked around the office", SUN, None, None),
        ("after lunch we talked about the roadmap", W, None, None),
        ("a week-long workshop on testing", NY, None, None),
        ("die Hälfte der Tickets ist erledigt", W, None, None),
        ("der Rest der Folien fehlt noch", LEAP, None, None),
        ("wir haben rund um das Thema Sicherheit diskutiert", SUN, None, None),
        ("nach dem Mittagessen haben wir weitergemacht", YE, None, None),
        ("the second half of the report needs work", W, None, None),
        ("the last few slides were confusing", NY, None, None),
    ],
}
