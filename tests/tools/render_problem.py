"""Print what a problem shows: its prompt, worked solution, answer and formula card, in English or Chinese.

    python -m tests.tools.render_problem TEMPLATE SEED [--lang en|zh] [--part prompt|solution|answer|card]
    python -m tests.tools.render_problem TEMPLATE SEED --lang zh --part solution --against 2d46a1f

These texts are what tests/unit/test_unchanged_values.py pins (as a short digest per template, seed, part and
language, in tests/fixtures/unchanged_problems.json).  When that test fails, ``--against REV`` renders the same
part at git revision REV (the one the fixture was recorded from) from a throwaway copy of its sources
(``git archive``; the repository is not touched) and prints a unified diff, old first.

The parts, rendered with the functions the app and the commands use:

* ``prompt``: :meth:`Problem.prompt` (scenario, givens, conventions, each step's question: ``drill ask``);
* ``solution``: each step's :meth:`Step.solution_lines` (the worked solution the app, ``drill check`` show);
* ``answer``: :meth:`Problem.to_dict` as JSON with sorted keys, one line (printed indented): what ``drill ask
  --json`` prints (answer kind, value, unit, display, tolerance, choices, misconceptions, inputs, formula);
* ``card``: :func:`question_bank.cards.card_lines` (``drill card`` and the card screen); a template's card does
  not depend on the seed.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

PARTS = ("prompt", "solution", "answer")  # per (template, seed); the card is per template
CARD = "card"
LANGS = ("en", "zh")
ROOT = Path(__file__).resolve().parents[2]


def render(problem, part: str, lang: str) -> str:
    """The text of one part of ``problem`` in ``lang`` (``part`` in :data:`PARTS`)."""
    if part == "prompt":
        return problem.prompt(lang)
    if part == "solution":
        out = []
        for s in problem.steps:
            if problem.is_chain:
                out.append(f"[{s.index + 1}]")
            out += s.solution_lines(lang)
        return "\n".join(out)
    if part == "answer":  # one line (the C encoder: fast); main() prints it indented
        d = problem.to_dict(lang)
        for g in d["givens"]:  # where a given comes from (the kit's origin) is added information,
            g.pop("from", None)  # not a change of the problem: tests/unit/test_kit.py checks it
        return json.dumps(d, ensure_ascii=False, sort_keys=True)
    raise ValueError(f"unknown part {part!r}")


def render_card(template, lang: str) -> str:
    from question_bank import cards

    return "\n".join(cards.card_lines(template, lang))


def digest(text: str) -> str:
    """A short digest of a rendered text (what the fixture stores)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def answers(problem) -> list[list]:
    """Each step's answer as plain values: ``[kind, value, unit]`` (a choice's value is its key, an expression's
    its canonical text, a layout's its example layout)."""
    out = []
    for s in problem.to_dict("en")["steps"]:
        a = s["answer"]
        out.append([a["kind"], a["value"], a["unit"]])
    return out


def text(template_id: str, seed: int, part: str, lang: str) -> str:
    """The text of one part as printed: the answer's JSON indented, one field a line."""
    from question_bank import registry

    t = registry.get(template_id)
    if part == CARD:
        return render_card(t, lang)
    shown = render(t.generate(seed), part, lang)
    return json.dumps(json.loads(shown), ensure_ascii=False, indent=1, sort_keys=True) if part == "answer" else shown


def _at_revision(rev: str, template_id: str, seed: int, part: str, lang: str) -> str:
    """The same text rendered by the sources of git revision ``rev`` (this file's code, their bank)."""
    with tempfile.TemporaryDirectory(prefix="render-") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "engine", "question_bank",
                                  "drill"], capture_output=True, check=False)
        if archive.returncode:
            sys.exit(f"git archive {rev} failed: {archive.stderr.decode(errors='replace').strip()}")
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        run = subprocess.run([sys.executable, __file__, "--root", tmp, template_id, str(seed), "--part", part,
                              "--lang", lang], capture_output=True, text=True, check=False)
        if run.returncode:
            sys.exit(f"rendering at {rev} failed:\n{run.stderr}")
        return run.stdout


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.tools.render_problem", description=__doc__.split("\n\n")[0])
    p.add_argument("template")
    p.add_argument("seed", type=int)
    p.add_argument("--lang", choices=LANGS, default="en")
    p.add_argument("--part", choices=PARTS + (CARD, "all"), default="all")
    p.add_argument("--against", metavar="REV", help="print a diff against the same text at git revision REV")
    p.add_argument("--root", help=argparse.SUPPRESS)  # the bank is imported from this tree (see the end of the file)
    args = p.parse_args(argv)
    parts = PARTS + (CARD,) if args.part == "all" else (args.part,)
    if args.against:
        changed = False
        for part in parts:
            old = _at_revision(args.against, args.template, args.seed, part, args.lang)
            new = text(args.template, args.seed, part, args.lang) + "\n"
            diff = list(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                             f"{args.against}: {part} ({args.lang})", f"now: {part} ({args.lang})"))
            sys.stdout.writelines(diff)
            changed = changed or bool(diff)
        if not changed:
            print(f"no difference from {args.against}")
        return 1 if changed else 0
    for part in parts:
        if len(parts) > 1:
            print(f"===== {part} ({args.lang}) =====")
        print(text(args.template, args.seed, part, args.lang))
    return 0


if __name__ == "__main__":
    if "--root" in sys.argv:  # before anything imports the bank: the tree at the revision asked for, only it
        sys.path.insert(0, sys.argv[sys.argv.index("--root") + 1])
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "").lower()
                            and "editable" not in type(f).__name__.lower() and "editable" not in repr(f).lower()]
    sys.exit(main())
