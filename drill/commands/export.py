"""``drill export``: the profile as JSON (drill/commands/memory.py writes it), the bank as Anki notes
(``--anki FILE.apkg``), the review log as CSV (``--csv FILE``).

An Anki package is written with genanki (a zip holding Anki's SQLite collection): writing that schema
ourselves would tie us to Anki's internals, which genanki follows.  One note per problem (template, seed),
front: the problem as the app shows it; back: the answer, the worked solution with the problem's numbers,
the takeaway and the source.  One deck per topic under an ``infra-drill`` parent.  Note GUIDs come from
(template, seed, language, conventions), so exporting again updates the notes instead of duplicating them.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import html
import io
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from engine.messages import Twin

if TYPE_CHECKING:
    import genanki

    from question_bank.template import Problem, Template

PARENT_DECK = "infra-drill"
DEFAULT_PER_TEMPLATE = 3
MAX_PER_TEMPLATE = 50  # 184 templates x 50 seeds: a deck of ~9,000 notes, written in seconds
# Anki keys a note type by this id: fixed, so a second export updates the same note type
MODEL_ID = 1_725_604_771
FIELDS = ("Problem", "Answer", "Solution", "Takeaway", "Source", "Template", "Seed")
CARD_CSS = """.card { font-family: sans-serif; font-size: 18px; text-align: left; }
.given { font-family: monospace; white-space: pre-wrap; }
.solution { font-family: monospace; white-space: pre-wrap; font-size: 16px; }
.meta { color: #888; font-size: 13px; }"""

NOT_IN_ANKI = Twin(
    "Anki compares typed text and cannot grade within a tolerance or recognise another convention: grade "
    "yourself against the back, or check an answer with `drill check TEMPLATE --seed N \"ANSWER\"`.",
    "Anki 只比较输入的文字，无法按容差评分，也认不出其他约定下的答案：请对照卡片背面自评，或用 "
    "`drill check TEMPLATE --seed N \"答案\"` 检查答案。")

CSV_COLUMNS = ("id", "ts", "date", "item", "topic", "seed", "step", "typed", "value", "verdict", "quality",
               "seconds", "mode", "scheduled", "due_before", "due_after", "interval_after", "hardware", "model",
               "conventions")


def register(subparsers) -> None:
    from drill.commands import convention_option
    from drill.commands.catalogue import hardware_option, model_option
    from engine.langs import LANG_CHOICES

    p = subparsers.add_parser("export", help="write the whole profile to one JSON file (or the bank as Anki notes, "
                                             "or the log as CSV)",
                              description="Write the profile (schedule, every review, mock results, settings) "
                                          "as one JSON document; '-' writes to standard output. --anki writes "
                                          "the question bank as Anki notes instead, --csv the review log.")
    p.add_argument("file", metavar="FILE", nargs="?")
    p.add_argument("--anki", metavar="FILE.apkg", help="write the bank as an Anki package: one note per problem, "
                   "one deck per topic under 'infra-drill'; the conventions, chip and model "
                   "are Settings' or the flags'")
    p.add_argument("--per-template", metavar="N", default=str(DEFAULT_PER_TEMPLATE),
                   help=f"with --anki: problems per template, at seeds 1..N (default {DEFAULT_PER_TEMPLATE})")
    p.add_argument("--topic", metavar="TOPIC", help="with --anki: only this topic's templates")
    p.add_argument("--lang", dest="sub_lang", choices=LANG_CHOICES, help="with --anki: the notes' language")
    p.add_argument("--csv", metavar="FILE", help="write the review log as CSV, one row a review")
    convention_option(p)
    hardware_option(p)
    model_option(p)
    p.set_defaults(func=run_export)


def run_export(args: argparse.Namespace) -> int:
    """One of FILE (the profile as JSON), --anki or --csv; the bank's options only with --anki."""
    from drill.commands import UsageError
    from drill.commands.memory import export_target, run_export_json

    chosen = [x for x in (args.file, args.anki, args.csv) if x is not None]
    if len(chosen) != 1:
        raise UsageError("export: give one of FILE, --anki FILE.apkg or --csv FILE",
                         "export：请给出 FILE、--anki FILE.apkg 或 --csv FILE 其中之一")
    if args.anki is None and (args.sub_lang or args.topic or args.convention or args.hardware or args.model):
        raise UsageError("export: --lang, --topic, --convention, --hardware and --model go with --anki",
                         "export：--lang、--topic、--convention、--hardware 和 --model 只用于 --anki")
    if args.anki is not None:
        return run_export_anki(args, export_target(args.anki))
    if args.csv is not None:
        return run_export_csv(args, export_target(args.csv))
    return run_export_json(args)


def stable_id(*parts: str) -> int:
    """A deck id Anki keeps from export to export: a hash of the deck's name (Anki wants a positive 63-bit id)."""
    return int.from_bytes(hashlib.sha256("\x1f".join(parts).encode()).digest()[:7], "big") + 1


def note_guid(problem: Problem, lang: str, conventions: Mapping[str, str]) -> str:
    """The note's GUID: the same problem in the same language, drawn under the same conventions (the set asked
    for: a problem that keeps a value whatever the choice says so in its text) and world, is the same note."""
    import genanki

    chosen = ",".join(f"{k}={v}" for k, v in sorted(conventions.items()))
    world = f"{problem.hardware or ''}/{problem.model or ''}"
    return genanki.guid_for("infra-drill", problem.template.id, str(problem.seed), lang, chosen, world)


def _html(text: str) -> str:
    return html.escape(text).replace("\n", "<br>")


def note_fields(problem: Problem, lang: str) -> list[str]:
    """The note's fields (:data:`FIELDS`) as HTML: the problem, the answer(s), the worked solution, the
    takeaway(s), the source, the template id and seed."""
    from engine import formulas, sources

    t = problem.template
    chain = problem.is_chain
    answers = [(f"{s.index + 1}. " if chain else "") + s.to_dict(lang)["answer"]["display"] for s in problem.steps]
    solution: list[str] = []
    takeaways: list[str] = []
    for s in problem.steps:
        if chain:
            solution.append(f"{s.index + 1}. {s.prompt(lang)}")
        solution += [line for line in s.solution_lines(lang) if not line.startswith(formulas.TAKEAWAY[lang])]
        if (take := s.takeaway_in(lang)) and take not in takeaways:
            takeaways.append(take)
    names = list(dict.fromkeys(n for s in problem.steps for n in s.card_formulas))
    cited = sources.cite(t.source, *(c for n in names for c in (formulas.get(n).source, formulas.get(n).refs)),
                         lang=lang)
    front = f"<b>{_html(t.title_in(lang))}</b><div class=given>{_html(problem.prompt(lang))}</div>"
    return [front, _html("\n".join(answers)), f"<div class=solution>{_html(chr(10).join(solution))}</div>",
            _html("\n".join(takeaways)), _html(cited),
            f"<span class=meta>{html.escape(t.id)}</span>", f"<span class=meta>{problem.seed}</span>"]


def note_model() -> genanki.Model:
    import genanki

    back = ("{{FrontSide}}<hr id=answer><b>{{Answer}}</b><br><br>{{Solution}}<br>{{Takeaway}}"
            "<br><br><span class=meta>{{Source}} · {{Template}} · seed {{Seed}}</span>")
    return genanki.Model(MODEL_ID, "infra-drill problem", fields=[{"name": f} for f in FIELDS],
                         templates=[{"name": "Problem", "qfmt": "{{Problem}}", "afmt": back}], css=CARD_CSS)


def build_package(templates: Iterable[Template], seeds: Iterable[int], lang: str,
                  conventions: Mapping[str, str], hardware: str | None = None,
                  model: str | None = None) -> tuple[genanki.Package, int]:
    """The package: one deck per topic under :data:`PARENT_DECK`, one note per (template, seed).  Returns it
    with its number of notes."""
    import genanki

    from question_bank.topics import TOPIC_NAMES

    kind = note_model()
    decks: dict[str, genanki.Deck] = {}
    notes = 0
    seeds = list(seeds)
    for t in templates:
        if t.topic not in decks:
            name = f"{PARENT_DECK}::{Twin(*TOPIC_NAMES[t.topic]).text(lang) if t.topic in TOPIC_NAMES else t.topic}"
            decks[t.topic] = genanki.Deck(stable_id(PARENT_DECK, t.topic, lang), name)
        for seed in seeds:
            problem = t.generate(seed, hardware=hardware, conventions=conventions, model=model)
            decks[t.topic].add_note(genanki.Note(model=kind, fields=note_fields(problem, lang),
                                                 guid=note_guid(problem, lang, conventions), tags=["infra-drill", t.topic]))
            notes += 1
    return genanki.Package(list(decks.values())), notes


def package_bytes(package: genanki.Package, timestamp: float) -> bytes:
    """The .apkg as bytes (genanki writes a zip to any file object); ``timestamp`` the notes' modification time."""
    buf = io.BytesIO()
    package.write_to_file(buf, timestamp=timestamp)
    return buf.getvalue()


def run_export_anki(args: argparse.Namespace, target: Path) -> int:
    from drill.commands import UsageError
    from drill.commands.bank import lang_of, whole_number, world_of
    from drill.commands.memory import fail
    from drill.core import context
    from engine.storage import SaveFailed, atomic_write
    from question_bank import registry

    lang = lang_of(args)
    n = whole_number(str(args.per_template), "--per-template", 1, MAX_PER_TEMPLATE)
    templates = registry.all_templates()
    if args.topic:
        templates = [t for t in templates if t.topic == args.topic]
        if not templates:
            from drill.commands.bank import bank_topics

            raise UsageError(f"--topic: no topic {args.topic!r}; topics: {', '.join(bank_topics())}",
                             f"--topic：没有主题 {args.topic!r}；可选主题：{', '.join(bank_topics())}")
    world = world_of(args)  # Settings' accelerator, model and conventions, each flag over them (as drill ask)
    package, notes = build_package(templates, range(1, n + 1), lang, world.conventions, world.hardware, world.model)
    try:
        atomic_write(target, package_bytes(package, context.utc_now().timestamp()), backup=False)
    except SaveFailed as e:
        from drill.commands.memory import said

        return fail(said("save.not_exported", args, e))
    decks = len({t.topic for t in templates})
    print(Twin(f"Wrote {notes} Anki notes ({len(templates)} templates × {n} seeds) in {decks} decks under "
               f"'{PARENT_DECK}' to {target}. Importing it again updates these notes.",
               f"已将 {notes} 条 Anki 笔记（{len(templates)} 个模板 × {n} 个种子）写入 {target}，分为“{PARENT_DECK}”"
               f"下的 {decks} 个牌组。再次导入会更新这些笔记，不会重复。").text(lang))
    if world.chosen:  # what the notes were drawn in, as drill ask says it
        print(world.line(lang))
    print(NOT_IN_ANKI.text(lang))
    return 0


def csv_rows(reviews: Iterable) -> Iterator[list[str]]:
    """The review log as CSV rows (:data:`CSV_COLUMNS`), the header first; one review at a time."""
    yield list(CSV_COLUMNS)
    for r in reviews:
        before, after = r.before or {}, r.after or {}
        conventions = ";".join(f"{k}={v}" for k, v in sorted((r.conventions or {}).items()))
        cells = (r.id, r.ts, r.date, r.item, r.topic, r.seed, r.step, r.typed, r.value, r.verdict, r.quality,
                 r.seconds, r.mode, r.scheduled, before.get("due"), after.get("due"), after.get("interval"),
                 r.hardware, r.model, conventions)
        yield ["" if c is None else str(c) for c in cells]


def _csv_chunks(reviews: Iterable) -> Iterator[bytes]:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for row in csv_rows(reviews):
        w.writerow(row)
        if buf.tell() > 1 << 16:
            yield buf.getvalue().encode("utf-8")
            buf.seek(0)
            buf.truncate()
    yield buf.getvalue().encode("utf-8")


def run_export_csv(args: argparse.Namespace, target: Path) -> int:
    from drill.commands.memory import fail, open_command_profile, said
    from drill.core.paths import command_lang
    from engine.storage import DamagedSave, SaveFailed, atomic_write

    lang = command_lang(args)
    with open_command_profile(args, read_only=True, existing=True) as profile:
        count = [0]

        def counted(reviews: Iterable) -> Iterator:
            for r in reviews:
                count[0] += 1
                yield r

        try:  # streamed: the log is read one file at a time and written in 64 kB pieces
            atomic_write(target, _csv_chunks(counted(profile.reviews())), backup=False)
        except DamagedSave as e:
            return fail(e.text(lang))
        except SaveFailed as e:
            return fail(said("save.not_exported", args, e))
        name = profile.name
    print(Twin(f"Wrote the {count[0]} reviews of profile '{name}' to {target} (CSV, one row a review).",
               f"已将档案“{name}”的 {count[0]} 条复习记录写入 {target}（CSV，每行一条）。").text(lang))
    return 0
