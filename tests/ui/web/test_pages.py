"""Every workbench page, walked as an admin, with and without ``HX-Request``: it answers 200, the
plain request gets the layout and the htmx one the fragment, and the markup keeps the rules a
person with a screen reader or a keyboard relies on and the CSP demands: one h1 and no skipped
heading level, a label for every field, a name for every button, no inline script or style."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from web_kit import Browser

from ctx.core import App, StoreRequest, access, blocks

PAGES = [
    "/",
    "/blocks",
    "/blocks?q=harbour",
    "/blocks/new",
    "/blocks/{id}",
    "/blocks/{id}/edit",
    "/blocks/{id}/delete",
    "/ask",
    "/ask?q=Where+is+the+harbour",
    "/chat",
    "/graph",
    "/graph?focus={id}",
    "/review",
    "/issues",
    "/issues?state=all",
    "/issues/board",
    "/issues/board?by=label",
    "/issues/new",
    "/issues/conflicts",
    "/admin",
    "/admin/settings",
    "/admin/backends",
    "/admin/backends/new",
    "/admin/secrets",
    "/admin/types",
    "/admin/keys",
    "/admin/plugins",
    "/admin/llmlog",
]
FIELDS = ("input", "select", "textarea")


class Page(HTMLParser):
    """What the checks need from one page: headings, fields and their labels, buttons."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.headings: list[int] = []
        self.fields: list[dict[str, str]] = []
        self.label_for: set[str] = set()
        self.open_labels = 0
        self.buttons: list[list[str]] = []
        self.in_button: list[str] | None = None
        self.inline: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "style" in a or any(k.startswith("on") for k in a) or "hx-on" in " ".join(a):
            self.inline.append(f"<{tag} {a}>")
        if tag == "script" and "src" not in a:
            self.inline.append("<script> without src")
        if tag == "style":
            self.inline.append("<style>")
        if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
            self.headings.append(int(tag[1]))
        if tag == "label":
            self.open_labels += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        if tag in FIELDS and a.get("type") not in ("hidden", "submit"):
            self.fields.append({**a, "_tag": tag, "_in_label": str(self.open_labels > 0)})
        if tag == "button":
            self.in_button = [a.get("aria-label", ""), a.get("title", "")]
            self.buttons.append(self.in_button)

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.open_labels = max(0, self.open_labels - 1)
        if tag == "button":
            self.in_button = None

    def handle_data(self, data: str) -> None:
        if self.in_button is not None:
            self.in_button.append(data.strip())

    def unlabelled(self) -> list[str]:
        out = []
        for f in self.fields:
            named = f.get("aria-label") or f.get("aria-labelledby") or f["_in_label"] == "True"
            if not named and f.get("id", "\0") not in self.label_for:
                out.append(f"<{f['_tag']} name={f.get('name')!r} id={f.get('id')!r}>")
        return out


@pytest.fixture
def block_id(app: App, admin: Browser) -> str:
    with app.connection() as conn:
        who = access.authenticate(conn, admin.key)
    stored = blocks.store_block(
        app, who, StoreRequest(title="Harbour", content="The harbour lies **north** of the mill.")
    )
    return str(stored["id"])


@pytest.mark.parametrize("path", PAGES)
def test_every_page_as_plain_request_and_as_htmx_fragment(
    admin: Browser, block_id: str, path: str
) -> None:
    url = path.format(id=block_id)
    full = admin.get(url)
    assert full.status_code == 200, (url, full.text[:500])
    assert full.text.lstrip().lower().startswith("<!doctype html>")
    page = Page(full.text)
    assert page.headings.count(1) == 1, (url, page.headings)
    jumps = [(a, b) for a, b in zip(page.headings, page.headings[1:], strict=False) if b > a + 1]
    assert not jumps, (url, page.headings)
    assert not page.unlabelled(), (url, page.unlabelled())
    assert all("".join(b).strip() for b in page.buttons), (url, page.buttons)
    assert not page.inline, (url, page.inline)
    fragment = admin.get(url, htmx=True)
    assert fragment.status_code == 200, url
    assert "<!doctype" not in fragment.text.lower() and "<main" not in fragment.text
    assert "<title>" in fragment.text  # htmx sets the tab's title from it
    assert Page(fragment.text).headings.count(1) == 1, url


def test_a_plain_key_gets_no_admin_page(browser: Browser) -> None:
    for path in [p for p in PAGES if p.startswith("/admin")]:
        answer = browser.get(path)
        assert answer.status_code == 403, path
        assert "admin key" in answer.text
    assert 'href="/admin"' not in browser.get("/").text
