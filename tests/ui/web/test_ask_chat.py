"""The Ask and Chat pages: with and without htmx, with and without a model backend (a real
loopback peer), answers rendered safely with their citations linked, the chat turn streamed over
SSE to the page's script and posted whole without it."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

from backend_kit import add_backend
from fastapi.testclient import TestClient
from openai_server import ToolCallReply
from web_kit import Browser

from ctx.core import App

XSS = (
    "It is sixty seconds [1]. <script>alert(1)</script> [click](javascript:alert(2)) "
    '<img src=x onerror="alert(3)"> <a href="https://evil.example" onclick="x()">raw</a>'
)
ACTION_RE = re.compile(r'action="(/chat/(chat-[0-9a-f]+)/send)"')


def _store(b: Browser, title: str, content: str, **extra: Any) -> str:
    r = b.client.post("/api/store", json={"title": title, "content": content, **extra},
                      headers={"X-Context-Key": b.key})  # fmt: skip
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


class _Elements(HTMLParser):
    """Every element and attribute a browser would build from a piece of HTML."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend((k, v or "") for k, v in attrs)


def _neutralised(html: str) -> None:
    """The model's markup came out as text: no script or image, no event handler, no link
    anywhere but http(s) or this server."""
    found = _Elements(html)
    assert "script" not in found.tags and "img" not in found.tags
    assert not [k for k, _ in found.attrs if k.startswith("on")]
    hrefs = [v for k, v in found.attrs if k == "href"]
    assert all(h.startswith(("/blocks/", "https://", "http://")) for h in hrefs), hrefs
    assert "https://evil.example" not in hrefs  # the raw <a> stayed text
    assert "&lt;script&gt;" in html


def _sse(text: str) -> list[tuple[str, Any]]:
    out = []
    for chunk in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


# -- ask -----------------------------------------------------------------------------------------


def test_the_ask_page_with_and_without_htmx(browser: Browser) -> None:
    page = browser.get("/ask")
    assert page.status_code == 200
    assert "<html" in page.text and "<h1>Ask</h1>" in page.text
    assert '<label for="ask-q">' in page.text and 'method="get" action="/ask"' in page.text
    assert 'hx-target="#ask-result"' in page.text and 'hx-push-url="true"' in page.text
    assert "chat.css" in page.text
    fragment = browser.get("/ask", htmx=True)
    assert fragment.status_code == 200
    assert "<html" not in fragment.text and "<h1>Ask</h1>" in fragment.text
    assert "chat.css" in fragment.text  # the layout's head is not part of a swap


def test_without_a_backend_ask_ranks_sources_and_says_answers_need_one(
    app: App, browser: Browser, admin: Browser
) -> None:
    first = _store(browser, "Ingress timeout",
                   "The ingress drops idle websocket connections after sixty seconds.")  # fmt: skip
    _store(browser, "Ingress retries", "The ingress retries a failed upstream twice.")
    page = browser.get("/ask?q=ingress+timeout+websocket")
    assert page.status_code == 200, page.text
    html = page.text
    assert f'href="/blocks/{first}"' in html and "drops idle <strong>websocket</strong>" in html
    assert "Answers need a model backend with the synthesis role" in html
    assert "/admin/backends" not in html  # not for a plain key
    assert '<details class="explain">' in html
    for channel in ("dense", "fts_en", "fts_de", "trigram", "dates"):
        assert f">{channel}</th>" in html
    for stage in ("candidates", "thresholds", "sources"):
        assert f'<th scope="row">{stage}</th>' in html
    assert "Resolved time" in html and "no time in the question" in html
    # htmx aimed at the result region: the region alone, no question form, no heading (each
    # source's mark buttons are forms of their own)
    part = browser.get("/ask?q=ingress+timeout", htmx=True, headers={"HX-Target": "ask-result"})
    assert part.status_code == 200
    assert "<h1>" not in part.text and 'action="/ask"' not in part.text
    assert f'id="mark-{first}"' in part.text and 'action="/eval/mark"' in part.text
    assert f'href="/blocks/{first}"' in part.text
    # an admin is shown where to add one
    _store(admin, "Ops runbook", "Restart the ingress when websocket timeouts pile up.")
    assert 'href="/admin/backends"' in admin.get("/ask?q=ingress+websocket+timeouts").text


def test_ask_shows_the_resolved_time(browser: Browser) -> None:
    _store(browser, "Deploy freeze", "The deploy freeze ran in March 2026.",
           occurred_at="2026-03-10T09:00:00Z")  # fmt: skip
    page = browser.get("/ask?q=deploy+freeze+in+March+2026")
    assert page.status_code == 200
    resolved = page.text.split("Resolved time</dt><dd>", 1)[1].split("</dd>", 1)[0]
    assert "2026-03-01" in resolved and "2026-03-31" in resolved


def test_ask_answers_with_linked_citations_and_neutralises_markup(
    app: App, srv: Any, browser: Browser
) -> None:
    add_backend(app, srv, ["synthesis"])
    block = _store(browser, "Ingress timeout",
                   "The ingress drops idle websocket connections after sixty seconds.")  # fmt: skip
    srv.chat_default = XSS
    page = browser.get("/ask?q=ingress+websocket+timeout")
    assert page.status_code == 200, page.text
    answer = page.text.split('<div class="markdown answer">', 1)[1].split("</div>", 1)[0]
    assert f'<a href="/blocks/{block}" rel="noopener noreferrer nofollow">[1]</a>' in answer
    _neutralised(answer)
    assert "Answered by peer" in page.text
    assert re.search(r'class="badge (ok|warn)">(confident|low confidence)', page.text)


def test_ask_by_post_needs_the_csrf_token(browser: Browser) -> None:
    block = _store(browser, "Lighthouse", "The lighthouse is painted red and white.")
    page = browser.post("/ask", {"q": "lighthouse painted"})
    assert page.status_code == 200 and f'href="/blocks/{block}"' in page.text
    assert browser.post("/ask", {"q": "lighthouse"}, csrf=False).status_code == 403


def test_a_question_too_long_comes_back_with_a_message(browser: Browser) -> None:
    page = browser.get("/ask?q=" + "x" * 2001)
    assert page.status_code == 422
    assert "at most 2000 characters" in page.text and 'id="ask-q"' in page.text


# -- chat ----------------------------------------------------------------------------------------


def test_the_chat_page_with_and_without_htmx(browser: Browser) -> None:
    page = browser.get("/chat")
    assert page.status_code == 200
    assert "<html" in page.text and "<h1>Chat</h1>" in page.text
    found = ACTION_RE.search(page.text)
    assert found, page.text
    assert "data-chat" in page.text and '<label for="chat-message">' in page.text
    assert 'name="csrf_token"' in page.text
    assert page.text.count("js/chat.js") == 1 and "No chats yet." in page.text
    assert "Chat needs a model backend with the chat role" in page.text
    fragment = browser.get("/chat", htmx=True)
    assert "<html" not in fragment.text and "<h1>Chat</h1>" in fragment.text
    assert "js/chat.js" in fragment.text  # swapped in: the script comes with the content
    assert browser.get("/chat/not-a-chat").status_code == 404
    unused = browser.get("/chat/chat-0123abcd")
    assert unused.status_code == 200 and 'action="/chat/chat-0123abcd/send"' in unused.text


def test_sending_streams_the_turn_and_needs_csrf(
    app: App, srv: Any, browser: Browser, server: TestClient
) -> None:
    add_backend(app, srv, ["chat"])
    block = _store(browser, "Harbour location", "The harbour lies north of the old mill.")
    action = ACTION_RE.search(browser.get("/chat").text)
    assert action
    url, session = action.group(1), action.group(2)
    srv.chat_replies = [
        ToolCallReply([("search", {"query": "harbour"})]),
        XSS.replace("[1]", f"[{block[:8]}]"),
    ]
    headers = {"Accept": "text/event-stream", "X-CSRF-Token": browser.csrf}
    with browser.client.stream("POST", url, data={"message": "Where is the harbour?"},
                               headers=headers) as r:  # fmt: skip
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events = _sse(r.read().decode())
    names = [n for n, _ in events]
    assert names[0] == "session" and events[0][1]["id"] == session
    assert "tool_call" in names and "token" in names and names[-1] == "done"
    done = events[-1][1]
    assert done["citations"] == [block] and done["backend"] == "peer"
    assert (
        f'<a href="/blocks/{block}" rel="noopener noreferrer nofollow">[{block[:8]}]</a>'
        in (done["html"])
    )
    _neutralised(done["html"])
    # without the token, or from another site, nothing is sent to the model
    before = len(srv.requests)
    r = browser.client.post(url, data={"message": "again"}, headers={"Accept": "text/event-stream"})
    assert r.status_code == 403
    r = browser.client.post(url, data={"message": "again"},
                            headers={**headers, "Origin": "https://evil.example"})  # fmt: skip
    assert r.status_code == 403
    assert len(srv.requests) == before


def test_without_javascript_the_form_posts_and_the_page_shows_the_answer(
    app: App, srv: Any, browser: Browser
) -> None:
    add_backend(app, srv, ["chat"])
    block = _store(browser, "Harbour location", "The harbour lies north of the old mill.")
    action = ACTION_RE.search(browser.get("/chat").text)
    assert action
    url, session = action.group(1), action.group(2)
    srv.chat_replies = [
        ToolCallReply([("get", {"id": block})]),
        f"North of the **old mill** [{block[:8]}]. <script>alert(1)</script>",
    ]
    answer = browser.post(url, {"message": "Where is the <b>harbour</b>?"})
    assert answer.status_code == 303 and answer.headers["location"] == f"/chat/{session}"
    sent = [r.body for r in srv.requests if r.path == "/v1/chat/completions"]
    assert len(sent) == 2 and not any(body.get("stream") for body in sent)  # whole answers
    page = browser.get(f"/chat/{session}")
    assert page.status_code == 200
    html = page.text
    assert "Where is the &lt;b&gt;harbour&lt;/b&gt;?" in html
    assert "<strong>old mill</strong>" in html and f'href="/blocks/{block}"' in html
    assert "<script>alert" not in html
    assert 'class="tool-card"' in html and "Harbour location" in html  # the get's card
    assert f'href="/chat/{session}" aria-current="page"' in html  # listed in the sidebar
    fragment = browser.get(f"/chat/{session}", htmx=True)
    assert "<html" not in fragment.text and "<strong>old mill</strong>" in fragment.text


def test_send_problems_keep_the_message_or_answer_json_to_the_script(
    app: App, srv: Any, browser: Browser
) -> None:
    url = "/chat/chat-0123abcd/send"
    # no backend: nothing stored, the page says what to do, the draft is kept
    page = browser.post(url, {"message": "Hello there"})
    assert page.status_code == 409 and "ctx backends create" in page.text
    assert ">Hello there</textarea>" in page.text
    streamed = browser.client.post(url, data={"message": "Hello"},
                                   headers={"Accept": "text/event-stream",
                                            "X-CSRF-Token": browser.csrf})  # fmt: skip
    assert streamed.status_code == 409 and "chat role" in streamed.json()["message"]
    assert "No chats yet." in browser.get("/chat").text
    add_backend(app, srv, ["chat"])
    page = browser.post(url, {"message": "   "})
    assert page.status_code == 422 and "must not be empty" in page.text
    streamed = browser.client.post(url, data={"message": ""},
                                   headers={"Accept": "text/event-stream",
                                            "X-CSRF-Token": browser.csrf})  # fmt: skip
    assert streamed.status_code == 422 and "message" in streamed.json()["message"]
    assert browser.post("/chat/bad/send", {"message": "hi"}).status_code == 404
    srv.reset(chat="error500")
    page = browser.post(url, {"message": "Anyone?"})
    assert page.status_code == 502 and "the model backend failed" in page.text
    assert "Anyone?" in page.text  # the question is in the session


def test_a_session_belongs_to_its_key(app: App, srv: Any, browser: Browser, admin: Browser) -> None:
    add_backend(app, srv, ["chat"])
    srv.chat_replies = ["Noted."]
    assert browser.post("/chat/chat-feedc0de/send", {"message": "team secret"}).status_code == 303
    assert "team secret" in browser.get("/chat/chat-feedc0de").text
    other = admin.get("/chat/chat-feedc0de")
    assert other.status_code == 200 and "team secret" not in other.text
    assert "team secret" not in admin.get("/chat").text
