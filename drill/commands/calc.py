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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from drill.commands import UsageError
    from engine.formulas import FormulaError

    if args.list:
        if args.name or args.assignments:
            raise UsageError("calc --list takes no formula name or values")
        return _list(args.json)
    if not args.name:
        raise UsageError("calc needs a formula name (see `drill calc --list`)")
    try:
        return _evaluate(args.name, _assignments(args.assignments), args.json)
    except FormulaError as e:
        raise UsageError(str(e)) from None


def _assignments(items: list[str]) -> dict[str, str]:
    from drill.commands import UsageError

    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            hint = " (quote values that contain spaces: \"bandwidth=3.35 TB/s\")" if "=" not in item else ""
            raise UsageError(f"expected key=value, got {item!r}{hint}")
        if not value:
            raise UsageError(f"{key}= has no value")
        if key in out:
            raise UsageError(f"input {key} given twice")
        out[key] = value
    return out


def _list(as_json: bool) -> int:
    from engine.formulas import CATALOGUE
    from engine.units import KINDS

    def unit(kind: str) -> str:
        base = kind.split(":", 1)[-1]
        return ("list of " if kind.startswith("list:") else "") + KINDS[base]

    if as_json:
        doc = [{
            "name": f.name,
            "meaning": f.meaning,
            "source": f.readable_source(),
            "formula": f.formula_text(),
            "unit": KINDS[f.unit],
            "kind": f.unit,
            "inputs": [{"name": i.name, "symbol": i.shown, "kind": i.kind, "unit": unit(i.kind), "meaning": i.meaning}
                       for i in f.inputs],
            "misconceptions": [{"key": m.key, "label": m.label} for m in f.misconceptions],
        } for f in CATALOGUE]
        return _emit(json.dumps(doc, ensure_ascii=False, indent=2))
    lines = []
    for f in CATALOGUE:
        inputs = ", ".join(f"{i.name} [{unit(i.kind)}]" for i in f.inputs)
        source = f.readable_source()
        lines += [f"{f.name}  {inputs}  ->  {KINDS[f.unit]}", f"    {f.meaning}" + (f"  ({source})" if source else "")]
    return _emit("\n".join(lines))


def _evaluate(name: str, texts: dict[str, str], as_json: bool) -> int:
    from engine import formulas
    from engine.units import KINDS, fmt_quantity

    f = formulas.get(name)
    values, notes = f.read_inputs(texts)
    value = f.evaluate(**values)
    steps = f.worked(values)  # the whiteboard derivation the app and `drill check` print
    if as_json:
        doc = {
            "formula": f.name,
            "meaning": f.meaning,
            "source": f.readable_source(),
            "inputs": {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()},
            "value": value,
            "unit": KINDS[f.unit],
            "kind": f.unit,
            "display": formulas.result_text(value, f.unit),
            "steps": steps,
            "notes": list(notes),
        }
        return _emit(json.dumps(doc, ensure_ascii=False, indent=2))
    out = [f"{f.name}: {f.meaning}"] + ([f"  source: {f.readable_source()}"] if f.readable_source() else [])
    width = max(len(i.name) for i in f.inputs)
    for i in f.inputs:
        v = values[i.name]
        shown = (", ".join(fmt_quantity(x, i.base_kind) for x in v) if isinstance(v, tuple)
                 else fmt_quantity(v, i.base_kind))
        out.append(f"  {i.name:<{width}} = {shown}")
    out += ["", *steps]
    out += [f"note: {n}" for n in notes]
    return _emit("\n".join(out))


def _emit(text: str) -> int:
    """Print ``text``; a closed pipe (``drill calc --list | head``) is not an error."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
