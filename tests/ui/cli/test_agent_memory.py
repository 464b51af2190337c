"""How the hooks word what they add: the briefing keeps to its budget."""

from __future__ import annotations

from ctx.ui.cli.agent_memory import CHARS_PER_TOKEN, briefing_text


def _block(n: int, words: int) -> dict[str, str]:
    return {
        "id": f"{n:08d}-0000-0000-0000-000000000000",
        "title": f"Rule {n}",
        "category": "agent-briefing",
        "content": " ".join(f"word{n}" for _ in range(words)),
    }


def test_a_briefing_fits_its_budget_and_says_what_it_left_out() -> None:
    blocks = [_block(1, 50), _block(2, 2000), _block(3, 50), _block(4, 50)]
    text = briefing_text("shop", blocks, budget_tokens=600)
    assert len(text) <= 600 * CHARS_PER_TOKEN
    assert "## Rule 1 [agent-briefing · 00000001]" in text and "word1 word1" in text
    assert "## Rule 2" in text and "…" in text  # the big block is cut at a word
    assert "## Rule 3" not in text and "(2 more briefing blocks: `ctx brief -p shop`)" in text


def test_a_small_briefing_comes_whole() -> None:
    blocks = [_block(1, 20), _block(2, 20)]
    text = briefing_text("shop", blocks, budget_tokens=4000)
    assert text.count("## Rule") == 2 and "…" not in text and "more briefing" not in text
