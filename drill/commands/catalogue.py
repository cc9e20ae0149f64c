"""``drill catalogue``: the accelerators and models problems are drawn from, with their sources.

    drill catalogue [--json]          every accelerator and model (built-in, then your own)
    drill catalogue show ID [--json]  one entry, each figure with its source
    drill catalogue check FILE        validate a catalogue file before putting it in <saves>/catalogue/

Your own accelerators and models are TOML files in ``<saves>/catalogue/`` (docs/catalogue.md).
A file that does not validate is named with the field at fault (exit status 1); the rest are listed.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "catalogue",
        help="list the accelerators and models, with their sources",
        description="List the accelerators and models problems draw from (built-in and your own, from "
                    "<saves>/catalogue/*.toml); `show ID` prints one entry with the source of each figure; "
                    "`check FILE` validates a catalogue file.",
    )
    p.add_argument("action", nargs="?", choices=("show", "check"), help="show ID | check FILE")
    p.add_argument("target", nargs="?", help="the entry's id (show) or the file (check)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from drill.commands import UsageError, shown_arg
    from drill.core.paths import command_lang

    lang = command_lang(args)
    if args.action is None:
        if args.target:
            raise UsageError(f"unknown action {shown_arg(args.target)} (show ID or check FILE)",
                             f"未知操作 {shown_arg(args.target)}（show ID 或 check FILE）")
        return _list(args, lang)
    if not args.target:
        what = ("an id", "一个 id") if args.action == "show" else ("a file", "一个文件")
        raise UsageError(f"catalogue {args.action} needs {what[0]}", f"catalogue {args.action} 需要{what[1]}")
    if args.action == "check":
        return _check(args.target, lang, args.json)
    return _show(args, lang)


def _user(args: argparse.Namespace):
    from drill.core.paths import saves_dir
    from question_bank import user_catalogue

    return user_catalogue.load(saves_dir(getattr(args, "saves", None)))


def _report(errors, lang: str) -> int:
    for e in errors:
        print(f"drill: {e.text(lang)}", file=sys.stderr)
    return 1 if errors else 0


def entries(args: argparse.Namespace):
    """Every entry: ``{"accelerators": [(entry, origin)], "models": [...]}`` (origin "built-in" or the user
    file), and the user files' errors."""
    from question_bank import catalogue

    builtin = catalogue.full_entries()
    loaded = _user(args)
    out = {section: [(e, "built-in") for e in builtin[section]] + [(e, str(p)) for e, p in loaded.entries(section)]
           for section in ("accelerators", "models")}
    return out, loaded.errors


def as_json(entry: dict, section: str, origin: str) -> dict:
    """An entry as ``drill catalogue --json`` prints it: every field of its section (null when absent)."""
    from question_bank.catalogue import SCHEMA

    doc = {key: entry.get(key) for key in SCHEMA[section]}
    doc["origin"] = origin
    return doc


def _list(args: argparse.Namespace, lang: str) -> int:
    found, errors = entries(args)
    if args.json:
        doc = {section: [as_json(e, section, origin) for e, origin in items] for section, items in found.items()}
        _emit(json.dumps(doc, ensure_ascii=False, indent=2))
        return _report(errors, lang)
    _emit("\n".join(_table(found, lang)))
    return _report(errors, lang)


def _num(x: float | None) -> str:
    """A figure as the data file gives it (362.05, 1,979)."""
    return "—" if x is None else f"{x:,.6g}"


def _count(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x / 1e12:.3g}T" if x >= 1e12 else f"{x / 1e9:.3g}B" if x >= 1e9 else f"{x / 1e6:.3g}M"


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal (a Chinese character takes two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    if not any(r[-1] for r in rows):  # the "from" column only when some entry is the user's
        header, rows = header[:-1], [r[:-1] for r in rows]
    widths = [max(display_width(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join(c + " " * (w - display_width(c)) for c, w in zip(r, widths)).rstrip()

    return [line(header), line(["-" * w for w in widths]), *map(line, rows)]


def _table(found: dict, lang: str) -> list[str]:
    from engine.langs import pick

    acc_rows = []
    for e, origin in found["accelerators"]:
        bw = e.get("scale_up_bandwidth_gbs")
        scale = "—" if bw is None else (
            f"{_num(bw)} GB/s" + (pick(lang, " both", " 双向") if e.get("scale_up_bidirectional") else "")
            + (f" ×{e['scale_up_domain']}" if e.get("scale_up_domain") else ""))
        acc_rows.append([e["id"], e["name"], e["vendor"], f"{_num(e['memory_gb'])} GB",
                         f"{_num(e['memory_bandwidth_tbs'])} TB/s",
                         _num(e.get("bf16_tflops") or e.get("fp16_tflops")), _num(e.get("fp8_tflops")),
                         _num(e.get("fp4_tflops")), scale, _num(e.get("tdp_w")) + (" W" if e.get("tdp_w") else ""),
                         "" if origin == "built-in" else origin])
    model_rows = []
    for e, origin in found["models"]:
        experts = (f"{e['n_experts']}" + (f"+{e['n_shared_experts']}" if e.get("n_shared_experts") else "")
                   + f" top-{e['top_k']}") if e.get("n_experts") else "—"
        model_rows.append([e["id"], e["name"], _count(e["params_total"]), _count(e.get("params_active")),
                           str(e["layers"]), str(e["d_model"]), f"{e['n_heads']}/{e['n_kv_heads']}",
                           e["attention"].upper(), experts, f"{e['context']:,}",
                           "" if origin == "built-in" else origin])
    acc_head, model_head, titles, tail = pick(lang, (
        ["id", "name", "vendor", "memory", "bandwidth", "16-bit TFLOPS", "fp8", "fp4", "scale-up ×domain", "TDP",
         "from"],
        ["id", "name", "params", "active", "layers", "d_model", "heads/kv", "attention", "experts", "context", "from"],
        ("Accelerators (dense peaks, TFLOPS)", "Models"),
        "Sources: drill catalogue show ID; your own hardware: <saves>/catalogue/*.toml (see the README)",
    ), (
        ["id", "名称", "厂商", "显存", "显存带宽", "16 位 TFLOPS", "fp8", "fp4", "scale-up 带宽 ×域", "TDP", "来自"],
        ["id", "名称", "总参数", "激活参数", "层数", "d_model", "头/KV 头", "注意力", "专家", "上下文", "来自"],
        ("加速器（稠密峰值，TFLOPS）", "模型"),
        "出处：drill catalogue show ID；自己的硬件：<存档文件夹>/catalogue/*.toml（见 README）",
    ))
    return [titles[0], *_grid(acc_head, acc_rows), "", titles[1], *_grid(model_head, model_rows), "", tail]


def _show(args: argparse.Namespace, lang: str) -> int:
    from drill.commands import UsageError, shown_arg
    from question_bank.catalogue import SCHEMA

    found, errors = entries(args)
    for section, items in found.items():
        for e, origin in items:
            if e["id"] == args.target:
                if args.json:
                    doc = as_json(e, section, origin) | {"section": section}
                    _emit(json.dumps(doc, ensure_ascii=False, indent=2))
                    return _report(errors, lang)
                from engine.langs import pick

                lines = [f"{e['name']} ({e['id']})  ·  {section}  ·  "
                         + (pick(lang, "built-in", "内置") if origin == "built-in" else origin)]
                sources = e.get("sources", {})
                width = max(len(k) for k in e)
                for key in [k for k in SCHEMA[section] if k != "pools"] + ["pools"]:
                    if key in ("id", "name", "source", "note", "sources") or key not in e:
                        continue
                    value = e[key]
                    shown = (", ".join(value) if isinstance(value, list) else
                             ", ".join(f"{k} = {v}" for k, v in value.items()) if isinstance(value, dict) else
                             str(value).lower() if isinstance(value, bool) else
                             f"{value:,.0f} ({_count(value)})" if key.startswith("params") else
                             f"{value:,}" if isinstance(value, int) else str(value))
                    lines.append(f"  {key:<{width}}  {shown}")
                    if key in sources:
                        lines.append(f"  {'':<{width}}    {pick(lang, 'source: ', '出处：')}{sources[key]}")
                lines.append("")
                lines.append(pick(lang, "Source (every figure without its own): ", "出处（默认）：") + e["source"])
                if e.get("note"):
                    lines.append(pick(lang, "Note: ", "说明：") + e["note"])
                _emit("\n".join(lines))
                return _report(errors, lang)
    _report(errors, lang)
    raise UsageError(f"no accelerator or model has the id {shown_arg(args.target)} (see `drill catalogue`)",
                     f"没有 id 为 {shown_arg(args.target)} 的加速器或模型（见 `drill catalogue`）")


def _check(target: str, lang: str, as_json_out: bool) -> int:
    from question_bank import user_catalogue
    from question_bank.catalogue import CatalogueError

    try:
        found = user_catalogue.read_file(target)
    except CatalogueError as e:
        if as_json_out:
            _emit(json.dumps({"file": target, "ok": False, "error": e.text(lang), "field": e.field,
                              "entry": e.entry_id}, ensure_ascii=False, indent=2))
        else:
            print(f"drill: {e.text(lang)}", file=sys.stderr)
        return 1
    acc = [e["id"] for e in found.get("accelerators", [])]
    mod = [e["id"] for e in found.get("models", [])]
    if as_json_out:
        _emit(json.dumps({"file": target, "ok": True, "accelerators": acc, "models": mod}, ensure_ascii=False,
                         indent=2))
    else:
        from engine.langs import pick

        _emit(pick(lang, f"{target}: valid, {len(acc)} accelerator(s) ({', '.join(acc) or 'none'}), {len(mod)} "
                         f"model(s) ({', '.join(mod) or 'none'}). Put it in <saves>/catalogue/ to use it.",
                   f"{target}：通过校验，{len(acc)} 个加速器（{', '.join(acc) or '无'}），{len(mod)} 个模型"
                   f"（{', '.join(mod) or '无'}）。放进 <存档文件夹>/catalogue/ 即可使用。"))
    return 0


def _emit(text: str) -> None:
    sys.stdout.write(text + "\n")


def model_option(parser) -> None:
    """``--model ID``: the model the weights, fit, KV cache, decode, prefill and ZeRO templates draw (ask, check,
    practice)."""
    parser.add_argument("--model", metavar="ID", help="practise on this model (an id of `drill catalogue`, your own "
                                                      "from <saves>/catalogue/ among them)")


def chosen_model(args: argparse.Namespace) -> str | None:
    """The id given with ``--model``, checked as :func:`chosen_hardware` checks ``--hardware``: a built-in model, or
    one of the user's files (a bad user file is said on stderr and the others still load).  UsageError when
    unknown."""
    wanted = getattr(args, "model", None)
    if wanted is None:
        return None
    from drill.commands import UsageError, shown_arg
    from drill.core.paths import command_lang
    from question_bank import models

    if any(m.key == wanted for m in models.ALL):
        return wanted
    loaded = _user(args)
    _report(loaded.errors, command_lang(args))
    if wanted in models.USER:
        return wanted
    known = [m.key for m in models.ALL] + list(models.USER)
    raise UsageError(f"--model {shown_arg(wanted)} is no model of the catalogue (one of {', '.join(known)}; "
                     "see `drill catalogue`)",
                     f"--model {shown_arg(wanted)} 不是目录中的模型（可选：{', '.join(known)}；见 `drill catalogue`）")


def hardware_option(parser) -> None:
    """``--hardware ID``: the chip the roofline, decode, ZeRO and fit templates draw (ask, check, practice)."""
    parser.add_argument("--hardware", metavar="ID", help="practise on this accelerator (an id of `drill catalogue`, "
                                                         "your own from <saves>/catalogue/ among them)")


def chosen_hardware(args: argparse.Namespace) -> str | None:
    """The id given with ``--hardware``, checked: a built-in accelerator, or one of the user's files (loaded from
    the saves folder; a bad user file is said on stderr and the others still load).  UsageError when unknown."""
    wanted = getattr(args, "hardware", None)
    if wanted is None:
        return None
    from drill.commands import UsageError, shown_arg
    from drill.core.paths import command_lang
    from question_bank import hardware

    if any(g.key == wanted for g in hardware.ALL):
        return wanted
    loaded = _user(args)
    _report(loaded.errors, command_lang(args))
    if wanted in hardware.USER:
        return wanted
    known = [g.key for g in hardware.ALL] + list(hardware.USER)
    raise UsageError(f"--hardware {shown_arg(wanted)} is no accelerator of the catalogue (one of {', '.join(known)}; "
                     "see `drill catalogue`)",
                     f"--hardware {shown_arg(wanted)} 不是目录中的加速器（可选：{', '.join(known)}；见 `drill catalogue`）")
