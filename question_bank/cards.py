"""The formula card of a template: what to read before drilling it for the first time.

A card is built from the catalogue and the template, never written separately (one
definition): for each formula the template asks about, the formula, what each symbol
means, where each factor comes from, a fully worked example with round numbers
(``Formula.example`` through ``Formula.worked``, the same derivation the app, ``drill
check`` and ``drill calc`` print) and the typical mistakes (the misconceptions the grader
names); for a question without a formula (memory- or compute-bound?, a concept) the rule
as a sample problem works it; then the takeaways and the readable sources.

:func:`card` gives the card as data (``drill card --json``); :func:`card_lines` as text
lines with ``#`` headings (the shell and the app's card screen draw those).
"""

from __future__ import annotations

from typing import Any

from engine import formulas, sources
from engine.messages import Twin, pick
from engine.units import KINDS

from .base import Template

HEADINGS = {
    "formula": ("Formula", "公式"),
    "symbols": ("Symbols", "符号"),
    "factors": ("Where each factor comes from", "每一项从哪来"),
    "example": ("Worked example (round numbers)", "完整例题（取整数）"),
    "mistakes": ("Typical mistakes", "常见错误"),
    "rule": ("How it is worked out (sample problem)", "怎么推（示例题）"),
    "takeaway": ("What the interviewer wants to hear", "面试官想听到的"),
    "source": ("Source", "出处"),
}


def heading(key: str, lang: str) -> str:
    return pick(lang, *HEADINGS[key])


def _unit(kind: str) -> str:
    base = kind.split(":", 1)[-1]
    return KINDS[base]


def formula_section(f: formulas.Formula, lang: str = "en") -> dict[str, Any]:
    """One formula of a card."""
    example = dict(f.example or {})
    # the example without the decomposition and takeaway: the card shows those in their own sections
    worked = f.worked(example, lang, decomposition=(), takeaway="") if example else []
    shown = f.shown_values(example) if example else {}
    take = Twin(f.takeaway, f.takeaway_zh).text(lang)
    return {
        "name": f.name,
        "formula": f.formula_text(),
        "meaning": f.meaning_in(lang),
        "symbols": [{"symbol": i.shown, "name": i.name, "meaning": i.meaning_in(lang), "unit": _unit(i.kind)}
                    for i in f.inputs if not i.quiet],  # a quiet convention is not in the formula shown
        "factors": [formulas.fill(d, shown) for d in
                    pick(lang, f.decomposition, f.decomposition_zh or None)],
        "example": {"inputs": {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in example.items()},
                    "lines": worked},
        "mistakes": [Twin(m.label, m.label_zh).text(lang) for m in f.misconceptions],
        "takeaway": formulas.fill(take, shown) if example else take,
        "source": f.readable_source(lang),
    }


def card(t: Template, lang: str = "en") -> dict[str, Any]:
    """The card of template ``t`` as data."""
    sample = t.generate(0)
    names: list[str] = []
    for s in sample.steps:
        for n in s.card_formulas:
            if n not in names:
                names.append(n)
    rules = []
    for s in sample.steps:
        if s.formula is None:
            lines = [x for x in s.solution_lines(lang) if not x.startswith(formulas.TAKEAWAY[lang])]
            rules.append({"prompt": s.prompt(lang), "lines": lines})
    sections = [formula_section(formulas.get(n), lang) for n in names]
    takeaways: list[str] = []  # each formula's (with the example's numbers), then the questions without a formula
    for take in [f["takeaway"] for f in sections] + [s.takeaway_in(lang) for s in sample.steps if s.formula is None]:
        if take and take not in takeaways:
            takeaways.append(take)
    # each formula's source and refs cited apart: a free-text source joined to a key list would be shown raw
    citations = [t.source] + [c for n in names for c in (formulas.get(n).source, formulas.get(n).refs)]
    return {
        "template": t.id,
        "title": t.title_in(lang),
        "topic": t.topic,
        "lang": lang,
        "formulas": sections,
        "rules": rules,
        "sample_seed": sample.seed if rules else None,
        "sample_prompt": sample.prompt(lang) if rules else "",
        "takeaways": takeaways,
        "source": sources.cite(*citations, lang=lang),
    }


def card_lines(t: Template, lang: str = "en") -> list[str]:
    """The card as text: ``# heading`` lines, then indented content."""
    c = card(t, lang)
    out = [c["title"], ""]
    for f in c["formulas"]:
        out += [f"# {heading('formula', lang)}", f"  {f['formula']}", f"  {f['meaning']}", ""]
        out.append(f"# {heading('symbols', lang)}")
        width = max(len(s["symbol"]) for s in f["symbols"])
        out += [f"  {s['symbol']:<{width}}  {s['meaning']}" + (f" [{s['unit']}]" if s["unit"] != "count" else "")
                for s in f["symbols"]]
        out.append("")
        if f["factors"]:
            out += [f"# {heading('factors', lang)}", *[f"  {x}" for x in f["factors"]], ""]
        if f["example"]["lines"]:
            out += [f"# {heading('example', lang)}", *[f"  {x}" for x in f["example"]["lines"]], ""]
        if f["mistakes"]:
            out += [f"# {heading('mistakes', lang)}", *[f"  • {x}" for x in f["mistakes"]], ""]
    if c["rules"]:
        out.append(f"# {heading('rule', lang)}")
        out += [f"  {line}" for line in c["sample_prompt"].splitlines()]
        for r in c["rules"]:
            if len(c["rules"]) > 1:
                out.append(f"  → {r['prompt']}")
            out += [f"    {x}" for x in r["lines"]]
        out.append("")
    if c["takeaways"]:
        out += [f"# {heading('takeaway', lang)}", *[f"  {x}" for x in c["takeaways"]], ""]
    if c["source"]:
        out += [f"# {heading('source', lang)}", f"  {c['source']}"]
    while out and not out[-1]:
        out.pop()
    return out
