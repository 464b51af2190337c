"""What the agent hooks read: the hook payload, the session transcript and PERSIST markers.

Claude Code writes a transcript as JSON lines. A ``user`` or ``assistant`` line carries a
``message`` whose ``content`` is a string or a list of blocks (``text``, ``tool_use``,
``tool_result``, ``thinking``); one assistant message is often spread over several lines, one
per block, sharing ``message.id``. Other lines (``summary``, ``system``,
``file-history-snapshot``, ...) are bookkeeping and are skipped, as is anything that is not JSON.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: ``[PERSIST:category:title]``; the block's content runs to the next marker or the end.
MARKER = re.compile(r"\[PERSIST:([^:\[\]\n]+):([^\[\]\n]+)\]")
# Code is where a marker is quoted, not meant: fenced blocks and `inline spans`.
_INLINE = re.compile(r"`[^`\n]*`")  # linear: a failed try stops at the next backtick or line end
#: The last message sits at the end: a long session's transcript is read from its tail only.
TAIL_BYTES = 8 * 1024 * 1024
#: Characters of a message searched for markers (a reply is far shorter; a signal cannot stop
#: a scan that runs in C, so the work must be bounded by the input).
MESSAGE_CHARS = 1_000_000


@dataclass(frozen=True)
class Marked:
    """One block an agent asked to keep."""

    category: str
    title: str
    content: str


def read_payload(raw: str) -> dict[str, Any]:
    """The hook's JSON object; ``{}`` for anything else (empty, not JSON, not an object)."""
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def project_of(cwd: str | Path) -> str:
    """The name of the git root above ``cwd`` (a ``.git`` folder, or a file in a worktree), else
    the name of ``cwd`` itself."""
    start = Path(cwd).expanduser().absolute()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder.name or str(folder)
    return start.name or str(start)


def _tail_lines(path: Path) -> list[str]:
    """The lines of the file's last ``TAIL_BYTES``; of a pipe or device (no size), its first."""
    with path.open("rb") as f:
        try:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - TAIL_BYTES))
        except OSError:  # a pipe
            size = 0
        data = f.read(TAIL_BYTES)
    if size > TAIL_BYTES:
        data = data.partition(b"\n")[2]  # the first line is cut
    return data.decode("utf-8", errors="replace").splitlines()


def message_text(message: Any) -> str:
    """The text blocks of a transcript message, without tool calls, results or thinking."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [
        b["text"]
        for b in content
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    return "\n".join(parts)


def last_assistant_text(path: str | Path, *, sidechain: bool | None = False) -> str:
    """The text of the last assistant message in a transcript ('' when there is none).

    ``sidechain`` True picks the lines of subagents (``isSidechain``: older Claude Code versions
    wrote them into the parent's transcript), False the main agent's, None any line (a
    subagent's own transcript)."""
    found: list[str] = []
    message_id: Any = None
    for line in reversed(_tail_lines(Path(path).expanduser())):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("type") not in ("user", "assistant"):
            continue
        if sidechain is not None and bool(entry.get("isSidechain")) != sidechain:
            continue
        message = entry.get("message")
        this_id = message.get("id") if isinstance(message, dict) else None
        if found or message_id is not None:
            if entry["type"] != "assistant" or this_id is None or this_id != message_id:
                break
        elif entry["type"] != "assistant":
            continue
        found.append(message_text(message))
        message_id = this_id
        if message_id is None:
            break
    return "\n".join(part for part in reversed(found) if part)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _fence(line: str) -> tuple[str, int, bool] | None:
    """The fence a line starts with (three or more backticks or tildes, indented or not): its
    character, its length, and whether the line holds nothing else (so it can close a block)."""
    rest = line.lstrip(" \t")
    if not rest.startswith(("```", "~~~")):
        return None
    length = len(rest) - len(rest.lstrip(rest[0]))
    return rest[0], length, not rest[length:].strip(" \t\r")


def _code_masked(text: str) -> str:
    """``text`` with its code blanked, every offset kept. A fenced block runs from a fence line
    to the next line of at least as many of the same character and nothing else; a fence that is
    never closed is not code. Two passes over the lines, so the time is linear in the text."""
    lines = text.split("\n")
    fences = [_fence(line) for line in lines]
    # longest closing fence at or after each line, per character: an unclosed fence is then
    # known at once instead of by a scan to the end (quadratic over many such fences)
    reach = {"`": [0] * (len(lines) + 1), "~": [0] * (len(lines) + 1)}
    for i in range(len(lines) - 1, -1, -1):
        for longest in reach.values():
            longest[i] = longest[i + 1]
        fence = fences[i]
        if fence and fence[2]:
            reach[fence[0]][i] = max(reach[fence[0]][i], fence[1])
    masked: list[str] = []
    i = 0
    while i < len(lines):
        fence = fences[i]
        if fence is None or reach[fence[0]][i + 1] < fence[1]:
            masked.append(_INLINE.sub(_blank, lines[i]))
            i += 1
            continue
        end = i + 1
        while not _closes(fences[end], fence):
            end += 1
        masked += [" " * len(line) for line in lines[i : end + 1]]
        i = end + 1
    return "\n".join(masked)


def _closes(line: tuple[str, int, bool] | None, opening: tuple[str, int, bool]) -> bool:
    return line is not None and line[2] and line[0] == opening[0] and line[1] >= opening[1]


def persist_markers(text: str) -> list[Marked]:
    """Every ``[PERSIST:category:title]`` block in the first ``MESSAGE_CHARS`` of ``text`` that
    has content, in order; a marker repeated later wins. Markers inside code (fenced or inline)
    are quotes and do not count."""
    text = text[:MESSAGE_CHARS]
    masked = _code_masked(text)
    matches = list(MARKER.finditer(masked))
    blocks: dict[tuple[str, str], Marked] = {}
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        category, title = m.group(1).strip(), m.group(2).strip()
        content = text[m.end() : end].strip()
        if category and title and content:
            blocks[(category, title)] = Marked(category, title, content)
    return list(blocks.values())
