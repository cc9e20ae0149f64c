"""Write tests/fixtures/unchanged_problems.json: what every template of the bank gives at seeds 1-40.

    python -m tests.tools.record_problems [--out PATH]

Run it on the revision the fixture is to pin (it was recorded from main 2d46a1f),
never to make a failing tests/unit/test_unchanged_values.py pass: an intended change is listed in that test's
``INTENDED`` with its reason.  One line per (template, seed): each step's ``[kind, value, unit]``, then the
digests (:func:`tests.tools.render_problem.digest`) of its prompt, solution and answer in English and Chinese;
``cards`` holds each template's card digests (en, zh).
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

from tests.tools.render_problem import LANGS, PARTS, ROOT, answers, digest, render, render_card

FIXTURE = ROOT / "tests" / "fixtures" / "unchanged_problems.json"
SEEDS = range(1, 41)


def record() -> str:
    from question_bank import registry

    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True, check=True).stdout.strip()
    ids = sorted(registry.REGISTRY)
    head = {"recorded_from": f"main {rev}", "seeds": [SEEDS.start, SEEDS.stop - 1],
            "texts": [f"{part}.{lang}" for part in PARTS for lang in LANGS],
            "digest": "sha256 of the UTF-8 text tests/tools/render_problem.py prints, first 8 hex digits"}
    lines = ["{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()) + ","]
    lines.append(' "cards": {')
    cards = {i: [digest(render_card(registry.get(i), lang)) for lang in LANGS] for i in ids}
    lines.append(",\n".join(f"  {json.dumps(i)}: {json.dumps(d)}" for i, d in cards.items()))
    lines.append(" },")
    lines.append(' "problems": {')
    rows = []
    for i in ids:
        t = registry.get(i)
        for seed in SEEDS:
            p = t.generate(seed)
            texts = " ".join(digest(render(p, part, lang)) for part in PARTS for lang in LANGS)
            rows.append(f"  {json.dumps(f'{i} {seed}')}: "
                        f"[{json.dumps(answers(p), ensure_ascii=False)}, {json.dumps(texts)}]")
    lines.append(",\n".join(rows))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m tests.tools.record_problems", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=FIXTURE)
    args = p.parse_args()
    text = record()
    json.loads(text)  # well-formed
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
