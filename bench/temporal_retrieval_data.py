"""Data of ``temporal_retrieval.py``: a small team's dated notes and questions that name a time.

"Today" is Wednesday 2026-03-18. The calendar the expectations rest on (ISO weeks, Monday first):

    last week  Mon 2026-03-09 .. Sun 2026-03-15
    this week  Mon 2026-03-16 .. Sun 2026-03-22   (yesterday Tue 17, day before Mon 16,
                                                   tomorrow Thu 19, in two days Fri 20)
    next week  Mon 2026-03-23 .. Sun 2026-03-29
    Easter     2025-04-20 (past), 2026-04-05 (coming)

Most topics (deploys, standups, incidents, retros, budget reviews, on-call, releases, Christmas,
Easter) have several notes at different dates, past and planned, so a question that names a topic
and a time is only answered well when the time picks the note. The expectations follow how ctx's
rule parser resolves each expression (checked with ``ctx temporal parse TEXT --now 2026-03-18``);
where that differs from a plain reading, the question says so in a comment.

A note is ``{key, title, content, occurred_at}`` (``occurred_at`` an ISO date or None); a question
is ``{q, expect, kind}`` where ``expect`` is a key or a list of keys (a hit is any of them).
"""

from __future__ import annotations

from datetime import date
from typing import Any

TODAY = date(2026, 3, 18)

KINDS = ("relative", "absolute", "week", "month", "holiday", "mostly_time", "control")

NOTES: list[dict[str, Any]] = [
    # -- undated: what the control questions are about ----------------------------------------
    {
        "key": "runbook_rollback",
        "title": "Runbook: rolling back a deploy",
        "content": "To roll back, re-run the pipeline with the previous image tag. Run the down "
        "migration only when the release shipped a schema change, and announce the rollback "
        "in #ops.",
        "occurred_at": None,
    },
    {
        "key": "oncall_policy",
        "title": "Rufbereitschaft: Eskalationsregeln",
        "content": "Wer Bereitschaft hat, reagiert innerhalb von 15 Minuten auf einen Alarm. Ist "
        "nach 30 Minuten keine Lösung in Sicht, wird die Teamleitung angerufen, bei Datenverlust "
        "sofort die CTO.",
        "occurred_at": None,
    },
    {
        "key": "code_review",
        "title": "Code review guidelines",
        "content": "Every pull request needs one approval; changes to migrations or "
        "authentication need two. Keep pull requests under 400 lines and answer review comments "
        "within a working day.",
        "occurred_at": None,
    },
    # -- deploys --------------------------------------------------------------------------------
    {
        "key": "deploy_0216",
        "title": "Deploy of the search service",
        "content": "Rolled out search-api 1.8 with the new tokenizer. It took 40 minutes because "
        "the canary stalled on a cold cache.",
        "occurred_at": "2026-02-16",
    },
    {
        "key": "deploy_0309",
        "title": "Hotfix deploy for the login bug",
        "content": "Pushed a hotfix for the session cookie bug that logged Safari users out. It "
        "went straight to production after a short smoke test.",
        "occurred_at": "2026-03-09",
    },
    {
        "key": "deploy_0317",
        "title": "Deploy: billing service 2.4",
        "content": "Billing service 2.4 went to production with the new invoice PDF renderer. "
        "Canary at 10 % for an hour, then the full rollout; no errors so far.",
        "occurred_at": "2026-03-17",
    },
    {
        "key": "deploy_0325",
        "title": "Geplantes Deployment: Benachrichtigungsdienst",
        "content": "Der neue Benachrichtigungsdienst soll mit Push-Nachrichten für Android live "
        "gehen. Vorher braucht es noch ein Lasttest-Fenster mit dem Ops-Team.",
        "occurred_at": "2026-03-25",
    },
    # -- standups and meetings ------------------------------------------------------------------
    {
        "key": "standup_0203",
        "title": "Standup: Onboarding von Lena",
        "content": "Lena hat ihren ersten Tag und bekommt Zugang zu GitLab und zum "
        "Staging-Cluster. Tom übernimmt das Pairing in ihrer ersten Woche.",
        "occurred_at": "2026-02-03",
    },
    {
        "key": "standup_0312",
        "title": "Standup: blocked on the sandbox keys",
        "content": "Ana is blocked on the payment provider's sandbox keys; Marco will chase their "
        "support. The flaky end-to-end test was quarantined.",
        "occurred_at": "2026-03-12",
    },
    {
        "key": "demo_0319",
        "title": "Sprint demo for the stakeholders",
        "content": "Show the new invoice PDFs and the search filters to sales and support. Marco "
        "prepares the slides; the demo runs on staging.",
        "occurred_at": "2026-03-19",
    },
    {
        "key": "standup_0324",
        "title": "Standup: Planung Lasttest",
        "content": "Im Standup klären, wer den Lasttest für den Benachrichtigungsdienst fährt "
        "und wann das Ops-Team Zeit dafür hat.",
        "occurred_at": "2026-03-24",
    },
    {
        "key": "customer_0317",
        "title": "Kundentermin bei den Stadtwerken",
        "content": "Mit den Stadtwerken die Anforderungen an den Datenexport besprochen: sie "
        "brauchen CSV-Dateien und eine API für die Zählerstände.",
        "occurred_at": "2026-03-17",
    },
    {
        "key": "audit_0318",
        "title": "Security audit kickoff",
        "content": "The external auditors started with interviews about access control and "
        "secret handling. They want the list of admin accounts first.",
        "occurred_at": "2026-03-18",
    },
    # -- incidents ------------------------------------------------------------------------------
    {
        "key": "incident_0210",
        "title": "Incident: expired TLS certificate",
        "content": "The certificate of the public API expired and the mobile apps failed for 25 "
        "minutes. Renewal is now automated with cert-manager.",
        "occurred_at": "2026-02-10",
    },
    {
        "key": "incident_0311",
        "title": "Incident: Cache-Ausfall im Redis-Cluster",
        "content": "Der Redis-Cluster lief voll, weil ein Import-Job Schlüssel ohne Ablaufzeit "
        "geschrieben hat. Die Produktseiten waren 40 Minuten lang langsam.",
        "occurred_at": "2026-03-11",
    },
    {
        "key": "incident_0316",
        "title": "Incident: database failover",
        "content": "The primary Postgres node lost its disk and Patroni promoted the replica "
        "after 90 seconds. Orders written in that window were replayed from the queue.",
        "occurred_at": "2026-03-16",
    },
    # -- retros ---------------------------------------------------------------------------------
    {
        "key": "retro_0226",
        "title": "Retro: zu viele Meetings",
        "content": "Das Team klagt über zu viele Abstimmungsrunden. Beschluss: mittwochs keine "
        "Meetings, das Standup bleibt unter zehn Minuten.",
        "occurred_at": "2026-02-26",
    },
    {
        "key": "retro_0313",
        "title": "Sprint retro: flaky tests",
        "content": "Flaky end-to-end tests cost us two days this sprint. Decision: a test is "
        "quarantined after its second flaky run and fixed within the sprint.",
        "occurred_at": "2026-03-13",
    },
    {
        "key": "retro_0326",
        "title": "Retro: Rückblick auf das Quartal",
        "content": "Die kommende Retro wird länger: wir schauen auf das ganze Quartal zurück. "
        "Jeder bringt zwei Punkte mit, die gut liefen, und zwei, die nicht liefen.",
        "occurred_at": "2026-03-26",
    },
    # -- budget reviews -------------------------------------------------------------------------
    {
        "key": "budget_0115",
        "title": "Annual budget review",
        "content": "Finance approved the yearly tooling budget: 60k for cloud and 12k for SaaS "
        "licences. The hiring budget covers one more backend engineer.",
        "occurred_at": "2026-01-15",
    },
    {
        "key": "budget_0227",
        "title": "Budget review: cutting SaaS licences",
        "content": "We cancelled the Datadog APM add-on and two unused Figma seats to stay "
        "within the licence budget; that saves about 800 a month.",
        "occurred_at": "2026-02-27",
    },
    {
        "key": "budget_0310",
        "title": "Budget-Review: Cloud-Kosten",
        "content": "Die Cloud-Kosten liegen 15 % über Plan, vor allem wegen Staging-Clustern, die "
        "nachts durchlaufen. Beschluss: Staging wird abends automatisch heruntergefahren.",
        "occurred_at": "2026-03-10",
    },
    {
        "key": "budget_0415",
        "title": "Budget review: conferences and training",
        "content": "Decide who goes to which conference and how the training budget is split "
        "across the team.",
        "occurred_at": "2026-04-15",
    },
    # -- on-call --------------------------------------------------------------------------------
    {
        "key": "oncall_1225",
        "title": "Bereitschaft: Alarm wegen vollem Log-Volume",
        "content": "Jonas hatte Bereitschaft und wurde wegen eines vollen Log-Volumes auf dem "
        "Build-Server geweckt. Logs rotiert, keine Auswirkung für Kunden.",
        "occurred_at": "2025-12-25",
    },
    {
        "key": "oncall_0315",
        "title": "On-call page: renewal job crashed",
        "content": "Weekend page: the cert-manager renewal job crashed on a missing secret. "
        "Priya re-ran it by hand and opened a ticket.",
        "occurred_at": "2026-03-15",
    },
    {
        "key": "oncall_0323",
        "title": "Übergabe der Rufbereitschaft an Priya",
        "content": "Priya übernimmt die Bereitschaft für eine Woche von Jonas. Übergabe: offene "
        "Tickets, der wackelige Backup-Job und die neuen Alarme des Benachrichtigungsdienstes.",
        "occurred_at": "2026-03-23",
    },
    # -- releases -------------------------------------------------------------------------------
    {
        "key": "release_freeze_1219",
        "title": "Code freeze before the holidays",
        "content": "No releases until the new year; only security fixes, with two approvals. "
        "The last deploy of the year went out this morning.",
        "occurred_at": "2025-12-19",
    },
    {
        "key": "release_0120",
        "title": "Release 2.2: dark mode",
        "content": "Version 2.2 shipped dark mode and keyboard shortcuts. The app store review "
        "took two days.",
        "occurred_at": "2026-01-20",
    },
    {
        "key": "release_0303",
        "title": "Release 2.3: Suchfilter",
        "content": "Version 2.3 bringt Suchfilter nach Datum und Kategorie. Die Release Notes "
        "gingen an den Support.",
        "occurred_at": "2026-03-03",
    },
    {
        "key": "release_0320",
        "title": "Release 2.5 planned",
        "content": "Release 2.5 removes the old checkout feature flags and ships the invoice "
        "PDFs to all customers. Code freeze starts the day before.",
        "occurred_at": "2026-03-20",
    },
    {
        "key": "release_0428",
        "title": "Release 3.0: neue Navigation",
        "content": "Das große Release mit der neuen Navigation und dem Offline-Modus. Das "
        "Marketing plant eine Ankündigung im Blog.",
        "occurred_at": "2026-04-28",
    },
    # -- Christmas and Easter -------------------------------------------------------------------
    {
        "key": "xmas_party_2024",
        "title": "Christmas party at the escape room",
        "content": "Team Christmas party: two escape rooms, then pizza. Only eight people came "
        "because half the team had the flu.",
        "occurred_at": "2024-12-13",
    },
    {
        "key": "xmas_party_2025",
        "title": "Weihnachtsfeier im Brauhaus",
        "content": "Die Weihnachtsfeier fand im Brauhaus am Markt statt: Bowling, Schnitzel und "
        "Wichteln. Zwölf Leute waren da, Lena hat den Bowling-Pokal gewonnen.",
        "occurred_at": "2025-12-12",
    },
    {
        "key": "easter_2025",
        "title": "Easter egg hunt in the office",
        "content": "Before the long weekend we hid chocolate eggs around the office; the support "
        "team found the most. Everyone left early afterwards.",
        "occurred_at": "2025-04-17",
    },
    {
        "key": "easter_2026",
        "title": "Osterfrühstück geplant",
        "content": "Vor den Feiertagen gibt es ein gemeinsames Osterfrühstück im Büro. Anna "
        "sammelt, wer was mitbringt.",
        "occurred_at": "2026-04-02",
    },
    # -- everything else ------------------------------------------------------------------------
    {
        "key": "planning_0302",
        "title": "Quarterly planning kickoff",
        "content": "Goals for the rest of the quarter: ship the invoice PDFs, bring cloud costs "
        "back to plan and start the notification service.",
        "occurred_at": "2026-03-02",
    },
    {
        "key": "talk_0305",
        "title": "Tech talk: Postgres indexes",
        "content": "Marco explained when a BRIN index pays off and why our partial indexes were "
        "never used. The slides are in the wiki.",
        "occurred_at": "2026-03-05",
    },
    {
        "key": "pg_upgrade_0221",
        "title": "Postgres upgrade to version 17",
        "content": "Upgraded the main cluster with pg_upgrade in link mode; twelve minutes of "
        "downtime, extensions rebuilt afterwards.",
        "occurred_at": "2026-02-21",
    },
    {
        "key": "hiring_0224",
        "title": "Interview with a backend candidate",
        "content": "Second-round interview: strong on SQL, weaker on system design. The team "
        "decides after the reference check.",
        "occurred_at": "2026-02-24",
    },
    {
        "key": "vacation_0330",
        "title": "Tom on holiday for two weeks",
        "content": "Tom is away; Ana covers his code reviews and the billing questions from "
        "support.",
        "occurred_at": "2026-03-30",
    },
    {
        "key": "offsite_0410",
        "title": "Team offsite in the mountains",
        "content": "Two days in a hut: a roadmap workshop and a hike. Everyone books their own "
        "train.",
        "occurred_at": "2026-04-10",
    },
]

# Every note of a span, for the questions that are mostly the time.
_LAST_WEEK = [
    "deploy_0309", "budget_0310", "incident_0311", "standup_0312", "retro_0313", "oncall_0315",
]  # fmt: skip
_THIS_WEEK = [
    "incident_0316", "deploy_0317", "customer_0317", "audit_0318", "demo_0319", "release_0320",
]  # fmt: skip
_NEXT_WEEK = ["oncall_0323", "standup_0324", "deploy_0325", "retro_0326"]
_YESTERDAY = ["deploy_0317", "customer_0317"]
# ctx reads "beginning of the month" as days 1-10
_EARLY_MARCH = ["planning_0302", "release_0303", "talk_0305", "deploy_0309", "budget_0310"]
_APRIL = ["easter_2026", "offsite_0410", "budget_0415", "release_0428"]

QUESTIONS: list[dict[str, Any]] = [
    # -- relative days --------------------------------------------------------------------------
    {"q": "What did we deploy yesterday?", "expect": "deploy_0317", "kind": "relative"},
    {
        "q": "Which incident did we have the day before yesterday?",
        "expect": "incident_0316",
        "kind": "relative",
    },
    # ctx: "last Tuesday" on a Wednesday is the day before (2026-03-17), not 2026-03-10.
    {"q": "What did we ship last Tuesday?", "expect": "deploy_0317", "kind": "relative"},
    {
        "q": "What was the blocker in the standup last Thursday?",
        "expect": "standup_0312",
        "kind": "relative",
    },
    {"q": "Who takes over on-call next Monday?", "expect": "oncall_0323", "kind": "relative"},
    {"q": "Which release goes out in two days?", "expect": "release_0320", "kind": "relative"},
    {"q": "Why were we paged three days ago?", "expect": "oncall_0315", "kind": "relative"},
    {"q": "Was haben wir gestern deployt?", "expect": "deploy_0317", "kind": "relative"},
    {"q": "Welcher Incident war vorgestern?", "expect": "incident_0316", "kind": "relative"},
    # ctx: "letzten Dienstag" is 2026-03-17 as well (see "last Tuesday").
    {
        "q": "Mit welchem Kunden haben wir letzten Dienstag gesprochen?",
        "expect": "customer_0317",
        "kind": "relative",
    },
    {
        "q": "Was wurde letzten Donnerstag im Standup besprochen?",
        "expect": "standup_0312",
        "kind": "relative",
    },
    {
        "q": "Wer übernimmt nächsten Montag die Rufbereitschaft?",
        "expect": "oncall_0323",
        "kind": "relative",
    },
    # -- absolute dates -------------------------------------------------------------------------
    {"q": "What did we decide on 2026-03-10?", "expect": "budget_0310", "kind": "absolute"},
    {"q": "budget review on March 10", "expect": "budget_0310", "kind": "absolute"},
    {"q": "Was hat die Retro am 13. März beschlossen?", "expect": "retro_0313", "kind": "absolute"},
    {"q": "What was in the release on March 3?", "expect": "release_0303", "kind": "absolute"},
    {"q": "incident on 2026-02-10", "expect": "incident_0210", "kind": "absolute"},
    {"q": "Wer hatte am 25. Dezember Bereitschaft?", "expect": "oncall_1225", "kind": "absolute"},
    {"q": "How did the deploy on 16 February go?", "expect": "deploy_0216", "kind": "absolute"},
    {"q": "Worum ging es im Standup am 3. Februar?", "expect": "standup_0203", "kind": "absolute"},
    # -- weeks ----------------------------------------------------------------------------------
    {"q": "Which incident did we have last week?", "expect": "incident_0311", "kind": "week"},
    {"q": "What did the retro last week decide?", "expect": "retro_0313", "kind": "week"},
    {"q": "What are we deploying next week?", "expect": "deploy_0325", "kind": "week"},
    {"q": "Which release ships this week?", "expect": "release_0320", "kind": "week"},
    {
        "q": "Was kam letzte Woche beim Budget-Review heraus?",
        "expect": "budget_0310",
        "kind": "week",
    },
    {"q": "Worum geht es nächste Woche in der Retro?", "expect": "retro_0326", "kind": "week"},
    {"q": "Was wurde diese Woche deployt?", "expect": "deploy_0317", "kind": "week"},
    {"q": "What is the standup next week about?", "expect": "standup_0324", "kind": "week"},
    # -- parts of months ------------------------------------------------------------------------
    {
        "q": "What did the budget review at the end of last month cut?",
        "expect": "budget_0227",
        "kind": "month",
    },
    {
        "q": "Was haben wir Anfang März für das Quartal geplant?",
        "expect": "planning_0302",
        "kind": "month",
    },
    {
        "q": "Which release went out at the beginning of March?",
        "expect": "release_0303",
        "kind": "month",
    },
    {"q": "Was hat die Retro Ende Februar beschlossen?", "expect": "retro_0226", "kind": "month"},
    {
        "q": "Welches Budget-Review steht nächsten Monat an?",
        "expect": "budget_0415",
        "kind": "month",
    },
    {
        "q": "Which release is planned for the end of next month?",
        "expect": "release_0428",
        "kind": "month",
    },
    {"q": "What incident did we have in February?", "expect": "incident_0210", "kind": "month"},
    {
        "q": "Was wurde Mitte Januar beim Budget beschlossen?",
        "expect": "budget_0115",
        "kind": "month",
    },
    # -- holidays: the topic decides, not any note dated on the holiday -------------------------
    {
        "q": "How was the Christmas party last year?",
        "expect": "xmas_party_2025",
        "kind": "holiday",
    },
    # ctx does not read "Weihnachtsfeier 2024" as a time (no match): it counts here on its topic.
    {"q": "Wie war die Weihnachtsfeier 2024?", "expect": "xmas_party_2024", "kind": "holiday"},
    {
        "q": "When is the Christmas party?",
        "expect": ["xmas_party_2025", "xmas_party_2024"],
        "kind": "holiday",
    },
    # "at Easter" alone resolves to the coming Easter (2026-04-05); in this past-tense question
    # ctx picks Easter 2025 (2025-04-20), as a reader would.
    {"q": "What did we do at Easter?", "expect": "easter_2025", "kind": "holiday"},
    {"q": "Was planen wir zu Ostern?", "expect": "easter_2026", "kind": "holiday"},
    {"q": "Who was on call over Christmas?", "expect": "oncall_1225", "kind": "holiday"},
    # ctx reads "vor Weihnachten" as Christmas itself (24-26 Dec), not the days before it.
    {
        "q": "Was galt vor Weihnachten für Releases?",
        "expect": "release_freeze_1219",
        "kind": "holiday",
    },
    # -- mostly the time ------------------------------------------------------------------------
    {"q": "What happened yesterday?", "expect": _YESTERDAY, "kind": "mostly_time"},
    {"q": "Was war gestern?", "expect": _YESTERDAY, "kind": "mostly_time"},
    {"q": "Was war vorgestern?", "expect": "incident_0316", "kind": "mostly_time"},
    {"q": "What's planned for tomorrow?", "expect": "demo_0319", "kind": "mostly_time"},
    {"q": "Was passiert übermorgen?", "expect": "release_0320", "kind": "mostly_time"},
    {"q": "What did we do last week?", "expect": _LAST_WEEK, "kind": "mostly_time"},
    {"q": "What is going on this week?", "expect": _THIS_WEEK, "kind": "mostly_time"},
    {"q": "Was steht nächste Woche an?", "expect": _NEXT_WEEK, "kind": "mostly_time"},
    {
        "q": "What happened at the beginning of the month?",
        "expect": _EARLY_MARCH,
        "kind": "mostly_time",
    },
    {"q": "Was ist für nächsten Monat geplant?", "expect": _APRIL, "kind": "mostly_time"},
    # -- controls: no time in the question ------------------------------------------------------
    {"q": "How do we roll back a deploy?", "expect": "runbook_rollback", "kind": "control"},
    {
        "q": "Wie eskalieren wir in der Rufbereitschaft?",
        "expect": "oncall_policy",
        "kind": "control",
    },
    {"q": "What are our code review rules?", "expect": "code_review", "kind": "control"},
    {
        "q": "Which database node failed over to the replica?",
        "expect": "incident_0316",
        "kind": "control",
    },
    {"q": "Warum lief der Redis-Cluster voll?", "expect": "incident_0311", "kind": "control"},
    {"q": "Why did we cancel the Datadog add-on?", "expect": "budget_0227", "kind": "control"},
    {
        "q": "Which release removes the checkout feature flags?",
        "expect": "release_0320",
        "kind": "control",
    },
]


def expected(question: dict[str, Any]) -> set[str]:
    """The keys that count as a hit for ``question``."""
    e = question["expect"]
    return {e} if isinstance(e, str) else set(e)


def check() -> None:
    """Fail loudly on a key that names no note, a duplicate key or an unknown kind."""
    keys = [n["key"] for n in NOTES]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate note keys")
    for q in QUESTIONS:
        if q["kind"] not in KINDS:
            raise ValueError(f"{q['q']!r}: unknown kind {q['kind']!r}")
        missing = expected(q) - set(keys)
        if missing:
            raise ValueError(f"{q['q']!r}: no note {sorted(missing)}")
