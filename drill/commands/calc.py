"""``drill calc``: evaluate any formula of the catalogue with a worked solution.

    drill calc --list [--json]
    drill calc ridge_point peak_flops=989TFLOPS bandwidth=3.35TB/s [--json]

Values are read by the same parser as answers (``engine.answers``): units are
optional (a bare number is in base units), ``70B`` is 7e10 for a count,
``fp16`` is 2 bytes per element, lists are ``10ms,12ms,8ms`` or
``[10,12,8]ms``.  The engine is imported inside the handler so that ``drill``
starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import cast

from drill.commands import convention_option
from engine.langs import EN


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "calc",
        help="evaluate a formula with a worked solution",
        description="Evaluate one formula of the catalogue: drill calc NAME key=value ... "
                    "(values may carry units: bandwidth=3.35TB/s, peak_flops=989TFLOPS, phi=70B).",
    )
    p.add_argument("name", nargs="?", help="formula name (see --list)")
    p.add_argument("assignments", nargs="*", metavar="key=value", help="one value per input of the formula")
    p.add_argument("--list", action="store_true", help="list every formula with its inputs and unit")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    convention_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from drill.commands import UsageError
    from drill.core.paths import command_lang
    from engine.formulas import FormulaError

    lang = command_lang(args)
    if args.list:
        if args.name or args.assignments:
            raise UsageError("calc --list takes no formula name or values", "calc --list 不接受公式名或输入值")
        return _list(args.json, lang)
    if not args.name:
        raise UsageError("calc needs a formula name (see `drill calc --list`)",
                         "calc 需要一个公式名（见 `drill calc --list`）")
    try:
        texts = _assignments(args.assignments)
        world, kept = _world(args, args.name, texts)
        from engine import convention_set as cs

        for key, value in kept.items():
            print("drill calc: " + cs.kept_statement(key, cs.BY_KEY[key].default, cs.condition(key, value), lang),
                  file=sys.stderr)
        return _evaluate(args.name, {**_convention_texts(args.name, world.conventions, texts), **texts}, args.json,
                         lang, world)
    except FormulaError as e:
        raise UsageError(e.said) from None


def _world(args: argparse.Namespace, name: str, texts: dict[str, str]):
    """The conventions ``drill calc NAME`` counts with: Settings' and each ``--convention`` over them
    (drill.core.world), only those the formula takes and the values typed leave open."""
    from drill.commands.bank import world_of
    from engine import convention_set as cs
    from engine import formulas
    from engine.formulas import FormulaError

    world = world_of(args)
    f = formulas.get(name)
    try:
        values = f.read_inputs(texts)[0]
    except FormulaError:
        values = {}  # (said when the formula is evaluated)
    taken = {k: v for k, v in world.conventions.items() if cs.takes(k, f) and not set(cs.takes(k, f)) & set(texts)}
    kept = {k: v for k, v in taken.items() if not cs.applies(k, v, values, formula=f)}  # 8Φ with an MFU on top: MFU counts 6Φ
    taken = {k: v for k, v in taken.items() if k not in kept}
    sources = {k: v for k, v in world.sources.items() if k == "conventions" and taken}
    return world._replace(hardware=None, model=None, conventions=taken, sources=sources), kept


def _convention_texts(name: str, chosen, texts: dict[str, str]) -> dict[str, str]:
    """``key=value`` texts of the formula's inputs that the ``chosen`` conventions set (a typed value wins)."""
    from engine import convention_set as cs
    from engine import formulas

    f = formulas.get(name)
    out: dict[str, str] = {}
    for key, value in chosen.items():
        for n in cs.takes(key, f):
            if n not in texts:
                i = f.input(n)
                out[n] = value if i.choices else f"{cs.input_values(key, value)[n]:g}"
    return out


def _assignments(items: list[str]) -> dict[str, str]:
    from drill.commands import UsageError

    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            spaces = "=" not in item
            hint = " (quote values that contain spaces: \"bandwidth=3.35 TB/s\")" if spaces else ""
            hint_zh = "（含空格的值要加引号：\"bandwidth=3.35 TB/s\"）" if spaces else ""
            raise UsageError(f"expected key=value, got {item!r}{hint}", f"应为 key=value，却是“{item}”{hint_zh}")
        if not value:
            raise UsageError(f"{key}= has no value", f"{key}= 没有给值")
        if key in out:
            raise UsageError(f"input {key} given twice", f"输入 {key} 给了两次")
        out[key] = value
    return out


def _list(as_json: bool, lang: str = EN) -> int:
    from engine.formulas import CATALOGUE, Input
    from engine.messages import pick
    from engine.units import KINDS

    def unit(i: Input) -> str:  # "B", "list of s", "exact|approx"; an optional input adds its default
        if not i.has_default:
            return i.unit_text(lang)
        default = stated_default(i)
        return pick(lang, f"{i.unit_text(lang)}, default {default}", f"{i.unit_text(lang)}，默认 {default}")

    def stated_default(i: Input) -> str:  # a default naming another input is that input's name (sender_copies)
        return i.default_from or i.stated(i.default_value)

    def optional(i: Input) -> dict:  # keys only an input with a default or choices has
        return {**({"default": stated_default(i)} if i.has_default else {}),
                **({"choices": [{"key": c.key, "meaning": c.words_in(lang)} for c in i.choices]} if i.choices else {})}

    if as_json:
        doc = [{
            "name": f.name,
            "meaning": f.meaning_in(lang),
            "source": f.readable_source(lang),
            "formula": f.formula_text(),
            "unit": KINDS[f.unit],
            "kind": f.unit,
            "inputs": [{"name": i.name, "symbol": i.shown, "kind": i.kind, "unit": i.unit_text(lang),
                        "meaning": i.meaning_in(lang), **optional(i)} for i in f.inputs],
            "misconceptions": [{"key": m.key, "label": pick(lang, m.label, m.label_zh or None)}
                               for m in f.misconceptions],
        } for f in CATALOGUE]
        return emit(json.dumps(doc, ensure_ascii=False, indent=2))
    lines = []
    for f in CATALOGUE:
        inputs = ", ".join(f"{i.name} [{unit(i)}]" for i in f.inputs)
        source = f.readable_source(lang)
        meaning = f.meaning_in(lang) + (pick(lang, f"  ({source})", f"（{source}）") if source else "")
        lines += [f"{f.name}  {inputs}  ->  {KINDS[f.unit]}", f"    {meaning}"]
    return emit("\n".join(lines))


def _evaluate(name: str, texts: dict[str, str], as_json: bool, lang: str = EN, world=None) -> int:
    from engine import formulas
    from engine.messages import pick
    from engine.units import KINDS, UNIT_KINDS, fmt_quantity, round_sig

    f = formulas.get(name)
    values, notes = f.read_inputs(texts)
    value = f.evaluate(**values)
    steps = f.worked(values, lang)  # the whiteboard derivation the app and `drill check` print
    said = [n.text(lang) for n in notes]
    if as_json:
        doc = {
            "formula": f.name,
            "meaning": f.meaning_in(lang),
            "source": f.readable_source(lang),
            "inputs": {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()
                       if f.states(f.input(k), v)},  # a convention is said only off its default
            "value": value,
            "unit": KINDS[f.unit],
            "kind": f.unit,
            "display": formulas.result_text(value, f.unit),
            "steps": steps,
            "notes": said,
            **({"conventions": world.to_dict()["conventions"], "sources": world.to_dict()["sources"]}
               if world is not None and world.conventions else {}),
        }
        return emit(json.dumps(doc, ensure_ascii=False, indent=2))
    source = f.readable_source(lang)
    out = [f"{f.name}{pick(lang, ': ', '：')}{f.meaning_in(lang)}"]
    out += [f"  {pick(lang, 'source: ', '出处：')}{source}"] if source else []
    if world is not None and world.conventions:  # what it counted with from Settings or --convention
        out.append("  " + world.line(lang))
    width = max(len(i.name) for i in f.inputs if f.states(i, values[i.name]))

    def echo(x: float, kind: str) -> str:  # a whole count that 4 figures would round shown whole (h = 12,288, not 12290)
        exact = UNIT_KINDS[kind].counted and x == int(x) and round_sig(x, 4) != x and x < 1e15
        return f"{int(x):,}" if exact else fmt_quantity(x, kind)

    for i in f.inputs:
        v = values[i.name]
        if not f.states(i, v):
            continue  # a convention at its default is not said (Input.quiet)
        if i.choices:
            shown = i.value_text(v)
        elif isinstance(v, tuple):
            shown = ", ".join(echo(x, i.base_kind) for x in v)
        else:
            shown = echo(cast(float, v), i.base_kind)  # a value of several numbers is a tuple (above)
        out.append(f"  {i.name:<{width}} = {shown}")
    out += ["", *steps]
    out += [f"{pick(lang, 'note: ', '注：')}{n}" for n in said]
    return emit("\n".join(out))


def emit(text: str) -> int:
    """Print ``text`` (an output that fails is said by :func:`drill.cli.main`)."""
    sys.stdout.write(text + "\n")
    return 0
