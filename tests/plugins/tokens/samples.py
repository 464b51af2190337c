"""Texts for the token-counter tests: prose in several languages and code, written for them."""

from __future__ import annotations

ENGLISH = """\
The river had been rising for three days before anyone in the village took it seriously. On the \
first morning, the old ferryman noticed that the water had climbed past the second step of the \
landing, and he mentioned it to his daughter over breakfast. She laughed and said the river did \
that every spring. By the evening of the second day, the path along the bank was under water, and \
the children who usually played there were sent home early.

It was the schoolteacher who finally called a meeting. She had grown up in a town further \
downstream, and she remembered the flood of her childhood: the smell of wet plaster, the \
furniture stacked on tables, the long weeks of cleaning afterwards. "We should move what we can \
to higher ground," she told the small crowd that gathered in the church hall. "If I am wrong, we \
will have wasted an afternoon. If I am right, we will have saved a great deal more than that."

Some people grumbled, but most of them went home and started carrying boxes upstairs. The baker \
lent his van. Two brothers who had not spoken to each other in years worked side by side, filling \
sandbags without a word. Late that night, when the rain finally stopped, the water was a hand's \
width from the top of the wall. Nobody slept much, but nobody lost their home either.

In the weeks that followed, the village council argued about whether to build a higher wall or to \
let the meadows on the other side flood instead. The debate was long and sometimes bitter, yet it \
was also, in its way, a sign of how much people cared about the place. When the vote was finally \
taken, the result surprised almost everyone: they decided to do both, and to pay for it together.
"""

GERMAN = """\
Der Fluss war drei Tage lang gestiegen, bevor jemand im Dorf die Sache ernst nahm. Am ersten \
Morgen bemerkte der alte Fährmann, dass das Wasser schon über die zweite Stufe des Anlegers \
gestiegen war, und er erwähnte es beim Frühstück gegenüber seiner Tochter. Sie lachte und sagte, \
der Fluss mache das jeden Frühling. „Wir sollten so viel wie möglich nach oben bringen“, sagte \
die Lehrerin der kleinen Menge im Gemeindesaal. Zwei Brüder, die seit Jahren nicht miteinander \
gesprochen hatten, füllten schweigend Sandsäcke. Kaum jemand schlief, aber niemand verlor sein \
Zuhause. Größe, Maß, Straße, Äpfel, Öl, Übermut.
"""

FRENCH = """\
La rivière montait depuis trois jours avant que quelqu'un au village ne prenne la chose au \
sérieux. Le premier matin, le vieux passeur remarqua que l'eau avait dépassé la deuxième marche \
du débarcadère, et il en parla à sa fille pendant le petit-déjeuner. « Nous devrions monter ce \
que nous pouvons », dit l'institutrice. Deux frères qui ne s'étaient pas parlé depuis des années \
remplirent des sacs de sable côte à côte, sans un mot. Où est l'hôpital ? Ça coûte cher, n'est-ce \
pas ?
"""

RUSSIAN = """\
Река поднималась уже три дня, прежде чем кто-то в деревне отнёсся к этому всерьёз. В первое утро \
старый паромщик заметил, что вода поднялась выше второй ступени причала, и сказал об этом дочери \
за завтраком. «Нам нужно перенести всё, что можно, повыше», — сказала учительница. Ёжик съел \
щавель.
"""

GREEK = """\
Το ποτάμι ανέβαινε εδώ και τρεις μέρες πριν κάποιος στο χωριό το πάρει στα σοβαρά. Το πρώτο πρωί, \
ο γέρος βαρκάρης παρατήρησε ότι το νερό είχε ξεπεράσει το δεύτερο σκαλί της αποβάθρας. Ψυχή, \
ξύλο, ΐ, ΰ, ώρα.
"""

ARABIC = """\
كان النهر يرتفع منذ ثلاثة أيام قبل أن يأخذ أحد في القرية الأمر على محمل الجد. في الصباح الأول \
لاحظ المراكبي العجوز أن الماء قد تجاوز الدرجة الثانية من المرسى، فذكر ذلك لابنته على الفطور. \
ضحكت وقالت إن النهر يفعل ذلك كل ربيع. ﷺ ﻻ
"""

CHINESE = """\
河水已经涨了三天，村里才有人认真对待这件事。第一天早上，老船夫注意到水已经漫过了码头的第二级台阶，\
他在吃早饭的时候跟女儿提起了这件事。女儿笑着说，河水每年春天都会这样。最后是学校的老师召集了一次会议。\
她说：“我们应该把能搬的东西都搬到高处去。如果我错了，我们只是浪费了一个下午。”
"""

JAPANESE = """\
川の水位は三日間上がり続けていたが、村の誰もそれを深刻に受け止めていなかった。最初の朝、年老いた渡し守は\
水が船着き場の二段目を越えていることに気づき、朝食のときに娘にそのことを話した。ｶﾀｶﾅ、ﾃﾞｰﾀ、①②③、㍿。
"""

EMOJI = """\
Great news 🎉🎉 the release is out! 🚀 Thanks to everyone who helped 🙏❤️ — see you at the party \
🍕🍺 👨‍👩‍👧‍👦 🇩🇪 🇫🇷 ✅ ❌ ⚠️ 👍🏽 😂😂😂 e\u0301 a\u0308\u0301 Z\u0351\u0352\u0353\u0354
"""

PROSE = {
    "english": ENGLISH,
    "german": GERMAN,
    "french": FRENCH,
    "russian": RUSSIAN,
    "greek": GREEK,
    "arabic": ARABIC,
    "chinese": CHINESE,
    "japanese": JAPANESE,
    "emoji": EMOJI,
}

PYTHON = '''\
from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass
class Budget:
    """How many tokens a prompt may spend."""

    limit: int = 8_192
    spent: dict[str, int] = field(default_factory=dict)

    def charge(self, part: str, tokens: int) -> bool:
        if tokens < 0:
            raise ValueError(f"negative cost for {part!r}: {tokens}")
        self.spent[part] = self.spent.get(part, 0) + tokens
        return sum(self.spent.values()) <= self.limit


def main(argv: list[str]) -> int:
    budget = Budget(limit=int(argv[1]) if len(argv) > 1 else 4096)
    for line in open("parts.jsonl", encoding="utf-8"):
        part = json.loads(line)
        if not budget.charge(part["name"], part["tokens"]):
            print(f"over budget at {part['name']}: {budget.spent}")
            return 1
    return 0
'''

JSON = """\
{
  "model": "gpt-4o-2024-08-06",
  "messages": [
    {"role": "system", "content": "You are a terse assistant."},
    {"role": "user", "content": "Summarise: 3.14159, 2.71828, 1.41421; \\"quoted\\" \\u00e9"}
  ],
  "temperature": 0.2, "max_tokens": 512, "stop": ["\\n\\n", "###"],
  "metadata": {"trace_id": "0f8a9c2e-4b1d-4e6a-9f3c-7d2b5a8e1c40", "retry": null, "ok": true}
}
"""

SQL = """\
WITH recent AS (
    SELECT b.id, b.title, b.created_at, ts_rank_cd(b.tsv, q) AS rank
      FROM context_blocks b, websearch_to_tsquery('english', $1) q
     WHERE b.scope = ANY($2::text[]) AND b.archived_at IS NULL
       AND b.created_at >= now() - interval '30 days'
)
SELECT id, title, rank FROM recent ORDER BY rank DESC, created_at DESC LIMIT 20;
-- 0001_init.sql: CREATE INDEX CONCURRENTLY IF NOT EXISTS ix_blocks_tsv ON context_blocks USING gin (tsv);
"""

SHELL = """\
#!/usr/bin/env bash
set -euo pipefail
for f in "${@:-.}"/*.log; do
    [[ -s "$f" ]] || continue
    grep -E '^(ERROR|WARN)\\b' "$f" | awk -F'\\t' '{print $2 "\\t" $NF}' | sort | uniq -c | sort -rn | head -n 20
done 2>/dev/null && echo "done: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> ~/.cache/scan.log
curl -fsSL -H "Authorization: Bearer ${TOKEN}" https://example.invalid/api/v1/items?page=2\\&size=100 | jq '.items[] | {id, name}'
"""

CODE = {"python": PYTHON, "json": JSON, "sql": SQL, "shell": SHELL}
