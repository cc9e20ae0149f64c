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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine import formulas, sources
from engine.langs import EN, ZH
from engine.messages import Twin, pick
from engine.records import NamedTuple
from engine.typography import typeset
from engine.units import KINDS

from .template import Template

if TYPE_CHECKING:
    from engine.formulas.conventions import Convention

HEADINGS = {
    "formula": ("Formula", "公式"),
    "symbols": ("Symbols", "符号"),
    "factors": ("Where each factor comes from", "每一项从哪来"),
    "example": ("Worked example (round numbers)", "完整例题（取整数）"),
    "mistakes": ("Typical mistakes", "常见错误"),
    "rule": ("How it is worked out (sample problem)", "怎么推（示例题）"),
    "takeaway": ("What the interviewer wants to hear", "面试官想听到的"),
    "source": ("Source", "出处"),
    "conventions": ("Conventions: who counts which", "约定：谁用哪种算法"),
}

# The convention groups (engine.formulas.conventions) a card's table lists, in this order: the ones a learner meets
# in interviews.  A formula brings the groups of its convention inputs; the MFU and HFU cards also
# explain 6Φ against 8Φ (MFU counts 6Φ by definition, 8Φ is HFU's); the overhead only beside the bytes per parameter.
CARD_GROUPS = ("train_bytes", "overhead", "zero_recipe", "flops_per_token", "ring_factor", "ring_directions",
               "tokens_per_param", "token_bytes", "vision_merge")
EXTRA_GROUPS = {"mfu": ("flops_per_token",), "hfu": ("flops_per_token",)}
WHEN_WORDS = {"large_n": ("only for a large ring (n ≥ 8)", "仅限大环（n ≥ 8）"),
              "no_mfu": ("never with an MFU on top (MFU counts 6Φ)", "不能再乘 MFU（MFU 按 6Φ 计）")}
TABLE_WIDTH = 80  # display cells (engine.wrap: a CJK character takes two)


def heading(key: str, lang: str) -> str:
    return pick(lang, *HEADINGS[key])


# A base unit that is an English word, not a symbol, in the Chinese card's symbol table
UNIT_WORDS_ZH = {"ratio": "比值"}


def _unit_said(symbol: Mapping[str, Any], lang: str) -> str:
    """`` [FLOP/s]`` after a symbol's meaning: its unit, once (not when the meaning ends by naming it, as
    ``峰值算力（FLOP/s）`` does), nor for a count."""
    unit, meaning = symbol["unit"], symbol["meaning"].rstrip()
    if unit == "count" or meaning.endswith((f"({unit})", f"（{unit}）")):
        return ""
    return f" [{UNIT_WORDS_ZH.get(unit, unit) if lang == ZH else unit}]"


def _unit(kind: str) -> str:
    base = kind.split(":", 1)[-1]
    return KINDS[base]


class Chosen(NamedTuple):
    """What the learner's conventions do to one formula of a card."""

    inputs: dict[str, float]  # the inputs they set (``bytes_per_param=18``: bytes_per_param 18)
    rows: list[Convention]  # the rows of the conventions table counted with, off their default
    kept: list[tuple[str, str, str]]  # (key, value, why) of a choice the formula keeps at its default


def chosen(f: formulas.Formula, conventions: Mapping[str, str] | None) -> Chosen:
    """The learner's ``conventions`` on ``f``, each where the conventions table allows it for the formula's example
    (8Φ per token never with an MFU on top: the card of a formula with an MFU keeps 6Φ and says why), as the
    problems count them (engine.convention_set.applies)."""
    from engine import convention_set
    from engine.formulas import conventions as table

    values = f.with_defaults(dict(f.example or {}))
    out = Chosen({}, [], [])
    for key, value in convention_set.canonical(conventions).items():
        takes = convention_set.takes(key, f)
        if not takes:
            continue
        if not convention_set.applies(key, value, values, formula=f):
            out.kept.append((key, convention_set.BY_KEY[key].default, convention_set.condition(key, value)))
            continue
        out.inputs.update({n: v for n, v in convention_set.input_values(key, value).items() if n in takes})
        out.rows.extend(r for n in takes for r in table.rows(f.input(n).convention) if r.key == value)
    return out


def _meaning(text: str, said: Mapping[str, str]) -> str:
    """A formula's meaning under the learner's conventions ``said`` (those it counts with, off their default):
    rewritten by the shared tokens (``total training FLOPs (8ΦD)``, ``policy and critic train (18 B per
    parameter)``); a gloss the tokens leave as it was spells the default out (``static training memory: 2 params +
    2 grads + 12 AdamW …``, ``(about 20 tokens per parameter)``), so only the name before it is kept: the factor
    line says the chosen split."""
    import re

    from engine import convention_set

    if not said:
        return text
    out = convention_set.rendered(text, said)
    if out != text:
        return out
    return re.split(r"[:：]|\s*[（(][^()（）]*[)）]$", text, maxsplit=1)[0].rstrip()


def formula_section(f: formulas.Formula, lang: str = EN, conventions: Mapping[str, str] | None = None
                    ) -> dict[str, Any]:
    """One formula of a card under the learner's ``conventions`` (off their default): the formula line and its
    meaning read the chosen value (``C = 8 × Φ × D``), where each factor comes from is the chosen row of the
    conventions table (its split, ``8Φ = 2Φ forward + 4Φ backward + 2Φ recompute``) in place of the formula's own
    lines (written at the default), and the worked example counts with it; a choice the formula keeps is said,
    with why.  The takeaway stays the default's."""
    from engine import convention_set
    from engine.formulas.folding import formula_line

    mine = chosen(f, conventions)
    said = {k: v for k, v in convention_set.canonical(conventions).items()
            if any(r.input in convention_set.takes(k, f) for r in mine.rows)}
    example = dict(f.example or {})
    if example:
        example |= mine.inputs
    # the example without the decomposition and takeaway: the card shows those in their own sections
    worked = f.worked(example, lang, decomposition=(), takeaway="") if example else []
    shown = f.shown_values(example) if example else {}
    # the takeaway is the interview's sentence, said at the default conventions with the default example's numbers
    # ("C = 6ΦD ...; divide it by N × peak × MFU": under 8Φ that division would be HFU's, a named mistake)
    take = Twin(f.takeaway, f.takeaway_zh).text(lang)
    if f.example:
        take = formulas.fill(take, f.shown_values(dict(f.example)))
    factors = ([r.explained(lang) for r in mine.rows] if mine.rows else
               [formulas.fill(d, shown) for d in pick(lang, f.decomposition, f.decomposition_zh or None)])
    return {
        "name": f.name,
        "formula": formula_line(f, mine.inputs),
        "kept": [convention_set.kept_statement(k, v, why, lang) for k, v, why in mine.kept],
        "meaning": _meaning(f.meaning_in(lang), said),
        "symbols": [{"symbol": i.shown, "name": i.name, "meaning": i.meaning_in(lang), "unit": _unit(i.kind)}
                    for i in f.inputs if not i.quiet],  # a quiet convention is not in the formula shown
        "factors": factors,
        "example": {"inputs": {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in example.items()},
                    "lines": worked},
        "mistakes": [Twin(m.label, m.label_zh).text(lang) for m in f.misconceptions],
        "takeaway": take,
        "source": f.readable_source(lang),
    }


def convention_rows(names: list[str], lang: str = EN) -> list[dict[str, Any]]:
    """The conventions table of a card whose formulas are ``names``: one row per value of each group they use."""
    from engine.formulas import conventions

    groups: set[str] = set()
    for n in names:
        groups.update(i.convention for i, _ in conventions.of_formula(formulas.get(n)))
        groups.update(EXTRA_GROUPS.get(n, ()))
    if "train_bytes" not in groups:
        groups.discard("overhead")
    out = []
    for g in (g for g in CARD_GROUPS if g in groups):
        for r in conventions.rows(g):
            when = pick(lang, *WHEN_WORDS[r.when]) if r.when in WHEN_WORDS else ""  # a torus: its words say so
            counts = r.counts_in(lang) + (pick(lang, "; ", "；") + when if when else "")
            out.append({"group": g, "input": r.input, "key": r.key, "label": r.label_in(lang), "counts": counts,
                        "who": r.who_in(lang) or r.source_in(lang), "default": r.default,
                        "selectable": r.selectable})
    return out


def convention_table(rows: list[dict[str, Any]], lang: str = EN, cells: int = TABLE_WIDTH) -> list[str]:
    """The rows as text lines of at most ``cells`` display cells: the value (the default marked), then what it
    counts and who uses it, wrapped under itself."""
    from engine import wrap

    if not rows:
        return []
    mark = pick(lang, " (default)", "（默认）")
    labels = [r["label"] + (mark if r["default"] else "") for r in rows]
    col = min(max(wrap.width(x) for x in labels), 30)
    rest = cells - 2 - col - 2
    lines = []
    for label, r in zip(labels, rows):
        text = r["counts"] + pick(lang, " · ", " · ") + r["who"]
        body = wrap.wrap(text, rest) or [""]
        pad = " " * (col - wrap.width(label)) if wrap.width(label) <= col else ""
        if wrap.width(label) > col:  # a label longer than the column takes its own line
            lines.append(f"  {label}")
            lines += [" " * (2 + col + 2) + b for b in body]
            continue
        lines.append(f"  {label}{pad}  {body[0]}")
        lines += [" " * (2 + col + 2) + b for b in body[1:]]
    return lines


def card(t: Template, lang: str = EN, conventions: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The card of template ``t`` as data; ``conventions``: the learner's, off their default: the title is written
    under those its sample follows (``Total training FLOPs (8ΦD)``) and each formula's example counts with them
    (``M_static = 18 × Φ``)."""
    sample = t.generate(0)
    title = t.generate(0, conventions=conventions).title_in(lang) if conventions else t.title_in(lang)
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
    sections = [formula_section(formulas.get(n), lang, conventions) for n in names]
    takeaways: list[str] = []  # each formula's (with the example's numbers), then the questions without a formula
    for take in [f["takeaway"] for f in sections] + [s.takeaway_in(lang) for s in sample.steps if s.formula is None]:
        if take and take not in takeaways:
            takeaways.append(take)
    # each formula's source and refs cited apart: a free-text source joined to a key list would be shown raw
    citations = [t.source] + [c for n in names for c in (formulas.get(n).source, formulas.get(n).refs)]
    return {
        "template": t.id,
        "title": title,
        "topic": t.topic,
        "lang": lang,
        "formulas": sections,
        "rules": rules,
        "sample_seed": sample.seed if rules else None,
        "sample_prompt": sample.prompt(lang) if rules else "",
        "takeaways": takeaways,
        "conventions": convention_rows(names, lang),
        "source": sources.cite(*citations, lang=lang),
    }


def card_lines(t: Template, lang: str = EN, conventions: Mapping[str, str] | None = None) -> list[str]:
    """The card as text: ``# heading`` lines, then indented content."""
    c = card(t, lang, conventions)
    out = [c["title"], ""]
    for f in c["formulas"]:
        out += [f"# {heading('formula', lang)}", f"  {f['formula']}", f"  {f['meaning']}",
                *[f"  {x}" for x in f["kept"]], ""]
        out.append(f"# {heading('symbols', lang)}")
        width = max(len(s["symbol"]) for s in f["symbols"])
        out += [f"  {s['symbol']:<{width}}  {s['meaning']}{_unit_said(s, lang)}" for s in f["symbols"]]
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
    if c["conventions"]:
        out += [f"# {heading('conventions', lang)}", *convention_table(c["conventions"], lang), ""]
    if c["takeaways"]:
        out += [f"# {heading('takeaway', lang)}", *[f"  {x}" for x in c["takeaways"]], ""]
    if c["source"]:
        out += [f"# {heading('source', lang)}", f"  {c['source']}"]
    while out and not out[-1]:
        out.pop()
    return [typeset(line, lang) for line in out]
