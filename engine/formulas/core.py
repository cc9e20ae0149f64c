"""The machinery every formula shares: inputs, parts, misconceptions, the Formula itself and its worked solution.

Kept apart from the catalogue (the topic modules of this package) so a topic module reads as data: a
list of :class:`Formula` entries, each binding inputs declared once in :mod:`engine.formulas.inputs`.
The package docstring (``engine/formulas/__init__.py``) says how to write a formula's teaching content.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from functools import cached_property
from typing import Any, overload

from engine.langs import EN, ZH
from engine.records import NamedTuple, frozen

from .. import expr as ex
from ..count_nouns import NotCounted, Noun
from ..messages import Said, Twin, join, pick, say
from ..units import DTYPE_BYTES, KINDS, UNIT_KINDS, binary_size, fmt_number, fmt_quantity, fmt_whole

# How inputs are written in formulas shown to people.
GREEK = {"phi": "Φ", "alpha": "α", "beta": "β"}


class Choice(NamedTuple):
    """One value of an enumeration input: the word typed (``approx``), the number the expression uses, and
    what it means in each language (said in errors, on the card and in the worked solution)."""

    key: str
    value: float
    words: str
    words_zh: str = ""

    def words_in(self, lang: str = EN) -> str:
        return pick(lang, self.words, self.words_zh or None)


class ChoiceValue(float):
    """A choice's number that remembers its key.

    Two choices may count with the same number (Lion and Muon both keep 4 B of state per parameter; the
    DeepSeek-V3 FP8 recipe and one fp32 optimizer state are both 12 B per parameter) and must still read back
    as the one typed: the number computes, the key is what the worked solution and the verdict say.
    """

    key: str

    def __new__(cls, value: float, key: str) -> ChoiceValue:
        out = super().__new__(cls, value)
        out.key = key
        return out

    def __getnewargs__(self) -> tuple[float, str]:  # type: ignore[override]  # float's takes no key
        return float(self), self.key


class Input(NamedTuple):  # immutable; a NamedTuple is cheaper to define at import than a dataclass
    """What an input means: declared once in :mod:`engine.formulas.inputs`, bound under a formula's spec name.

    The same meaning may be an input of several formulas under different names (``seq`` in one, ``n`` in
    another: the spec's names are ``drill calc``'s public interface), so a formula binds a declaration with
    :meth:`as_` rather than declaring it again.  ``low``/``high`` bound what ``drill calc`` accepts (inclusive;
    below 0 is refused as negative); a ``default`` makes the input optional (``drill calc`` uses it when
    omitted and the worked solution states it); ``choices`` make it an enumeration of named values.
    """

    name: str
    kind: str  # a key of engine.units.KINDS, or "list:time" for a list of times
    meaning: str
    symbol: str = ""
    meaning_zh: str = ""  # shown on the formula card in Chinese (default: the English meaning)
    low: float = 0.0
    high: float | None = None
    default: float | str | None = None  # a number in base units, or the key of a choice
    choices: tuple[Choice, ...] = ()
    # A convention whose default is the seeds' value: stated (worked solution, drill calc) only
    # where it differs from the default, so a problem at the default does not mention it.
    quiet: bool = False
    # The group of engine.formulas.conventions.CONVENTIONS whose rows are this input's recognised values:
    # its choices and default are built from them, and the grader evaluates the formula with each other row.
    convention: str = ""
    # A default that names another input (``sender_copies`` = ``replicas``): omitted, it takes that input's value.
    default_from: str = ""
    # What a count-kind input counts: a noun (GPUs, tokens: a given of it is shown "512 GPUs" and read back with
    # it), or what else the number is (a size, a factor); a convention's choice or a flag is a switch by itself.
    # tests/unit/test_count_nouns.py checks every count declaration says it.
    counts: Noun | NotCounted | None = None

    def as_(self, name: str, symbol: str = "") -> Input:
        """This meaning bound under another input name (and the symbol that formula writes it with)."""
        return self._replace(name=name, symbol=symbol)

    @property
    def counted(self) -> Noun | NotCounted | None:
        """What the input counts (:attr:`counts`); a convention's choice or a flag counts nothing."""
        if self.counts is None and self.kind == "count" and (self.convention or self.choices):
            return NotCounted.SWITCH
        return self.counts

    @property
    def noun(self) -> Noun | None:
        """The thing the input counts, or None (a size, a factor, a switch, or not a count)."""
        return self.counts if isinstance(self.counts, Noun) else None

    def meaning_in(self, lang: str = EN) -> str:
        return pick(lang, self.meaning, self.meaning_zh or None)

    @property
    def has_default(self) -> bool:
        return self.default is not None or bool(self.default_from)

    @property
    def default_value(self) -> float:
        """The default in base units (an enumeration's default key gives its choice's number); an input whose
        default is another input's value has none of its own (see :attr:`default_from`)."""
        if isinstance(self.default, str):
            return self.value_of(self.default)
        if self.default is None:
            raise KeyError(f"{self.name} has no default")
        return self.default

    def choice(self, key: str) -> Choice:
        for c in self.choices:
            if c.key == key:
                return c
        raise KeyError(key)

    def value_of(self, key: str) -> float:
        """The number of the choice ``key``; a :class:`ChoiceValue` carrying the key where another choice counts
        with the same number (so the value still reads back as the key typed)."""
        c = self.choice(key)
        if any(o.value == c.value and o.key != c.key for o in self.choices):
            return ChoiceValue(c.value, c.key)
        return c.value

    def choice_of(self, value: ex.Value) -> Choice | None:
        """The choice whose number is ``value`` (None for a plain numeric input); a :class:`ChoiceValue` names its
        own choice among those sharing its number."""
        key = getattr(value, "key", None)
        if key is not None and any(c.key == key for c in self.choices):
            return self.choice(key)
        return next((c for c in self.choices if c.value == value), None)

    def value_text(self, value: ex.Value) -> str:
        """How a value of this input reads: an enumeration's key, else the quantity with its unit."""
        c = self.choice_of(value)
        if c is not None:
            return c.key
        if isinstance(value, (list, tuple)):
            return ", ".join(fmt_quantity(float(x), self.base_kind) for x in value)
        return fmt_quantity(float(value), self.base_kind)

    def stated(self, value: ex.Value) -> str:
        """A convention's value as the worked solution states it: zero in the base unit ("R = 0 s", not "0 ns")."""
        if value == 0 and not self.is_list and UNIT_KINDS[self.kind].clock:
            return f"0 {KINDS[self.kind]}"
        return self.value_text(value)

    def unit_text(self, lang: str = EN) -> str:
        """``B``, ``list of s``, or an enumeration's keys ``exact|approx``."""
        if self.choices:
            return "|".join(c.key for c in self.choices)
        if self.is_list:
            return pick(lang, "list of ", "一组 ") + KINDS[self.base_kind]
        return KINDS[self.kind]

    @property
    def shown(self) -> str:
        return self.symbol or GREEK.get(self.name, self.name)

    @property
    def is_list(self) -> bool:
        return self.kind.startswith("list:")

    @property
    def base_kind(self) -> str:
        return self.kind.split(":", 1)[1] if self.is_list else self.kind

    def read(self, text: str) -> tuple[ex.Value, tuple[Said, ...]]:
        """A value typed as text (``3.35TB/s``, ``70B``, ``fp16``, ``10ms,12ms,8ms``) in base units.

        Returns the value and notes on how it was read (:mod:`engine.messages` data: ``str()`` is
        the English, ``.text("zh")`` the Chinese); raises :class:`FormulaError` naming this input.
        A bare number is in base units; values are never negative, and stay within ``low``..``high``.
        An enumeration reads one of its keys (any case) and gives that choice's number.
        """
        from ..answers import Unreadable, parse_list, parse_quantity

        kind = self.base_kind

        def refuse(reason: Said) -> FormulaError:
            return FormulaError(say("formula.input", name=self.name, typed=text, reason=reason))

        def note(n: Said) -> Said:
            return say("note.input", name=self.name, note=n)

        if self.choices:
            typed = text.strip().lower()
            for c in self.choices:
                if c.key.lower() == typed:
                    return self.value_of(c.key), ()
            raise refuse(say("formula.choices", name=self.name, choices=join(
                [Twin(f"{c.key} ({c.words})", f"{c.key}（{c.words_in(ZH)}）") for c in self.choices],
                en=", ", zh="、")))
        if self.is_list:
            r = parse_list(text, kind)
            if isinstance(r, Unreadable):
                raise refuse(r.said)
            if any(v < 0 for v in r):
                raise refuse(say("formula.negative", name=self.name))
            return r, ()
        per_dtype = UNIT_KINDS[kind].per_dtype  # bytes_per_elem=bf16, scale_bits=fp16
        if per_dtype and text.strip().lower() in DTYPE_BYTES:
            size = per_dtype * DTYPE_BYTES[text.strip().lower()]
            return size, (note(say(f"note.dtype_{kind}", dtype=text.strip(), size=fmt_number(size))),)
        p = parse_quantity(text, kind)
        if isinstance(p, Unreadable):
            raise refuse(p.said)
        if p.value < 0:
            raise refuse(say("formula.negative", name=self.name))
        self.check_range(p.value, refuse)
        notes = tuple(note(n) for n in p.said)
        if p.bare and not UNIT_KINDS[kind].plain and p.value != 0:
            notes += (note(say("note.bare_base", unit=KINDS[kind])),)
        return p.value, notes

    def check_range(self, value: float, refuse) -> None:
        """Refuse a value outside ``low``..``high`` (``refuse`` builds the error naming the typed text)."""
        if value < self.low:
            raise refuse(say("formula.below", name=self.name, low=fmt_quantity(self.low, self.kind)))
        if self.high is not None and value > self.high:
            raise refuse(say("formula.above", name=self.name, high=fmt_quantity(self.high, self.kind)))


@frozen
class Misconception:
    """A wrong formula people use instead; named when an answer matches it."""

    key: str
    label: str  # "forgot the factor 2": reads after "Looks like you ..."
    expr: str  # may use names beyond the formula's inputs (given by the problem)
    label_zh: str = ""  # "漏了因子 2": reads after "看起来你…" (tests/unit/test_formulas.py: every one has it)

    @cached_property
    def node(self) -> ex.Node:
        return _parse_trusted(self.expr)


class Part(NamedTuple):
    """A named intermediate value of a worked solution: ``KV/token = 2 × bytes × L × n_kv × d_head``."""

    name: str  # identifier, usable by later parts and by Formula.via
    symbol: str  # how it is written: "KV/token"
    expr: str  # of the formula's inputs and earlier parts
    kind: str  # unit kind of the value (engine.units.KINDS)
    label: str  # what it is: "K and V of every layer"
    label_zh: str = ""

    def label_in(self, lang: str = EN) -> str:
        return pick(lang, self.label, self.label_zh or None)


class Requirement(NamedTuple):
    """A condition the inputs must meet for the formula to mean anything, checked before it is evaluated.

    ``expr`` (of the inputs) must be ``"positive"`` (> 0) or ``"whole"`` (a whole number, at least 1);
    otherwise evaluating refuses with ``said`` / ``said_zh`` ("never compute-bound: ...") rather than
    return a negative batch or a fractional number of steps.
    """

    expr: str
    test: str
    said: str
    said_zh: str

    def met(self, value: float) -> bool:
        if self.test == "whole":
            return value >= 1 and abs(value - round(value)) <= 1e-9 * value
        return value > 0


TAKEAWAY: dict[str, str] = {EN: "Takeaway: ", ZH: "面试要点："}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z_0-9]*)\}")


def fill(text: str, shown: Mapping[str, str]) -> str:
    """``{name}`` -> ``shown[name]``; other braces are left alone."""
    return _PLACEHOLDER.sub(lambda m: shown.get(m.group(1), m.group(0)), text)


class Derivation(NamedTuple):
    """The language-independent lines and figures of a worked solution (:meth:`Formula.derivation`)."""

    values: dict[str, ex.Value]  # the inputs, omitted defaults filled in
    shown: Mapping[str, str]  # how each input, part and the result reads (Formula.shown_values)
    plain: bool  # every quiet convention at its default: the parts, via and the formula's own teaching are said
    parts: tuple[tuple[str, Part], ...]  # "  X = written = substituted = result" and its part (for its label)
    core: tuple[str, ...]  # Formula.solution: formula, substitution, result
    via: str | None  # the substitution grouped by the parts, when said


@frozen
class Formula:
    """One formula of the catalogue, defined once (see the module docstring)."""

    name: str
    inputs: tuple[Input, ...]
    expr: str
    unit: str  # kind of the result (see engine.units.KINDS)
    meaning: str
    source: str
    misconceptions: tuple[Misconception, ...] = field(default=())
    result_symbol: str = ""
    # teaching content (see the module docstring): keyword arguments, all optional
    refs: str = ""
    decomposition: tuple[str, ...] = ()
    decomposition_zh: tuple[str, ...] = ()
    parts: tuple[Part, ...] = ()
    via: str = ""
    simplification: tuple[str, ...] = ()
    simplification_zh: tuple[str, ...] = ()
    takeaway: str = ""
    takeaway_zh: str = ""
    example: Mapping[str, Any] | None = field(default=None, compare=False)
    meaning_zh: str = ""
    requires: tuple[Requirement, ...] = ()  # conditions the inputs must meet (see Requirement)
    # The expression with every quiet convention input (Input.quiet) at its default ("16*phi" for
    # "bytes_per_param*phi*(1 + overhead)"): what the formula line, the substitution and the card show while
    # the conventions are the defaults.  tests/unit/test_conventions.py checks it gives the same value.
    plain_expr: str = ""
    # The result is a per-device figure (ZeRO memory per GPU, bytes each GPU sends): an answer may say so
    # ("33 GB per GPU", "每卡 33 GB"); on any other question that qualifier is refused, not read.
    # A template's Ask may override it (question_bank.spec.Ask.per_gpu).
    per_device: bool = False

    def __post_init__(self) -> None:
        if self.unit not in KINDS:
            raise ValueError(f"{self.name}: unknown unit kind {self.unit!r}")
        for r in self.requires:
            if r.test not in ("positive", "whole"):
                raise ValueError(f"{self.name}: requirement test {r.test!r} is neither 'positive' nor 'whole'")
        for i in self.inputs:
            if i.choices and i.default is not None and i.default not in {c.key for c in i.choices}:
                raise ValueError(f"{self.name}: input {i.name}: default {i.default!r} is not one of its choices")
        for p in self.parts:
            if p.kind not in KINDS:
                raise ValueError(f"{self.name}: part {p.name}: unknown unit kind {p.kind!r}")

    @cached_property
    def node(self) -> ex.Node:
        """The parsed expression, built on first use (keeps ``import engine.formulas`` fast).

        Its names must be exactly the inputs (tests/unit/test_formulas.py checks every formula).
        """
        node = _parse_trusted(self.expr)
        used, declared = ex.names_in(node), {i.name for i in self.inputs}
        if used != declared:
            raise ValueError(f"{self.name}: expression uses {sorted(used)}, inputs are {sorted(declared)}")
        return node

    @cached_property
    def plain_node(self) -> ex.Node:
        """:attr:`plain_expr` parsed (the full expression when there is none)."""
        if not self.plain_expr:
            return self.node
        node = _parse_trusted(self.plain_expr)
        allowed = {i.name for i in self.inputs if not i.quiet}
        if not ex.names_in(node) <= allowed:
            raise ValueError(f"{self.name}: plain_expr uses {sorted(ex.names_in(node) - allowed)}")
        return node

    def at_defaults(self, values: Mapping[str, ex.Value] | None = None) -> bool:
        """Whether every quiet convention input is at its default in ``values`` (None: the formula as written)."""
        if values is None:
            return True
        return all(values.get(i.name, i.default_value) == i.default_value for i in self.inputs if i.quiet)

    @staticmethod
    def states(i: Input, value: ex.Value) -> bool:
        """Whether an input's value is said (echoed, a convention line): a quiet convention only off its default."""
        return not i.quiet or value != i.default_value

    def shown_node(self, values: Mapping[str, ex.Value] | None = None) -> ex.Node:
        return self.plain_node if self.at_defaults(values) else self.node

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.inputs)

    @property
    def symbols(self) -> dict[str, str]:
        return {i.name: i.shown for i in self.inputs}

    def input(self, name: str) -> Input:
        for i in self.inputs:
            if i.name == name:
                return i
        raise KeyError(name)

    @cached_property
    def defaults(self) -> dict[str, float]:
        """Inputs that may be omitted, with the value used then (base units)."""
        return {i.name: i.default_value for i in self.inputs if i.default is not None}

    @cached_property
    def defaults_from(self) -> dict[str, str]:
        """Inputs whose default is another input's value: name -> that input's name (``sender_copies`` -> ``replicas``)."""
        return {i.name: i.default_from for i in self.inputs if i.default_from}

    @overload
    def with_defaults(self, values: dict[str, ex.Value]) -> dict[str, ex.Value]: ...
    @overload
    def with_defaults(self, values: Mapping[str, ex.Value]) -> Mapping[str, ex.Value]: ...

    def with_defaults(self, values: Mapping[str, ex.Value]) -> Mapping[str, ex.Value]:
        """``values`` with every omitted input that has a default filled in (the same mapping when none is)."""
        if all(k in values for k in self.defaults) and all(k in values for k in self.defaults_from):
            return values
        full = {**{k: v for k, v in self.defaults.items() if k not in values}, **values}
        for k, source in self.defaults_from.items():
            if k not in full and source in full:
                full[k] = full[source]
        return full

    def check_inputs(self, values: Mapping[str, object]) -> None:
        missing = [n for n in self.input_names if n not in values and n not in self.defaults
                   and n not in self.defaults_from]
        if missing:
            raise FormulaError(say("formula.missing_many" if len(missing) > 1 else "formula.missing_one",
                                   formula=self.name, names=", ".join(missing), inputs=", ".join(self.input_names)))

    def read_inputs(self, texts: Mapping[str, str]) -> tuple[dict[str, ex.Value], tuple[Said, ...]]:
        """Every input typed as text -> (values in base units, notes on how they were read: see :meth:`Input.read`).

        An omitted input that has a default gets it, with a note saying so.  Raises :class:`FormulaError`
        for an unknown, missing or unreadable input.
        """
        unknown = [k for k in texts if k not in self.input_names]
        if unknown:
            raise FormulaError(say("formula.unknown_input", formula=self.name, name=unknown[0],
                                   inputs=", ".join(self.input_names)))
        self.check_inputs(texts)
        values: dict[str, ex.Value] = {}
        notes: list[Said] = []
        for i in self.inputs:
            if i.name not in texts and i.default_from:  # another input's value, filled in below
                continue
            if i.name not in texts:  # check_inputs: it has a default
                values[i.name] = i.default_value
                if i.quiet:
                    continue  # a convention at its default is not said (see Input.quiet)
                notes.append(say("note.input", name=i.name, note=say("note.default", value=i.stated(values[i.name]))))
                continue
            try:
                values[i.name], n = i.read(texts[i.name])
            except FormulaError as e:
                raise FormulaError(say("formula.in", formula=self.name, reason=e.said)) from None
            notes += n
        for name, source in self.defaults_from.items():
            if name not in values:  # a default naming another input: that input's value, said as such
                values[name] = values[source]
                notes.append(say("note.input", name=name, note=say("note.default", value=f"{source} = "
                                                                  + self.input(source).stated(values[source]))))
        return values, tuple(notes)

    def evaluate(self, **values: ex.Value) -> float:
        """The value in base units of :attr:`unit`. Extra keys are ignored; omitted inputs take their default."""
        self.check_inputs(values)
        values = self.with_defaults(values)
        try:
            for r, node in self.requirement_nodes:
                if not r.met(ex.evaluate(node, values)):
                    raise FormulaError(say("formula.in", formula=self.name, reason=Twin(r.said, r.said_zh)))
            return ex.evaluate(self.node, values)
        except ex.ExprError as e:
            raise FormulaError(say("formula.in", formula=self.name, reason=e.said)) from None

    @cached_property
    def requirement_nodes(self) -> tuple[tuple[Requirement, ex.Node], ...]:
        return tuple((r, _parse_trusted(r.expr)) for r in self.requires)

    def formula_text(self, values: Mapping[str, ex.Value] | None = None) -> str:
        """``zero2_bytes = 2 × Φ + 14 × Φ / N_dp`` (the plain form while the conventions are the defaults)."""
        return f"{self.result_symbol or self.name} = {ex.render(self.shown_node(values), self.symbols)}"

    def solution(self, **values: ex.Value) -> list[str]:
        """The worked solution: formula, substitution, result with its unit."""
        return self._solution(self.with_defaults(values), self.evaluate(**values))

    def _solution(self, values: Mapping[str, ex.Value], v: float) -> list[str]:  # values with defaults, v their value
        return [
            self.formula_text(values),
            "  = " + ex.render(self.shown_node(values), self.symbols, values),
            "  = " + result_text(v, self.unit),
        ]

    # ---------------------------------------------------------------- teaching
    def meaning_in(self, lang: str = EN) -> str:
        return pick(lang, self.meaning, self.meaning_zh or None)

    def readable_source(self, lang: str = EN) -> str:
        """Where this formula comes from, in words (never the internal R§/C§ codes)."""
        from ..sources import cite

        return cite(self.source, self.refs, lang=lang)

    @cached_property
    def part_nodes(self) -> tuple[tuple[Part, ex.Node], ...]:
        return tuple((p, _parse_trusted(p.expr)) for p in self.parts)

    @cached_property
    def via_node(self) -> ex.Node | None:
        return _parse_trusted(self.via) if self.via else None

    def part_values(self, values: Mapping[str, ex.Value]) -> dict[str, float]:
        """The value of every part (base units of its kind), in order; omitted inputs take their defaults."""
        env: dict[str, ex.Value] = dict(self.with_defaults(values))
        out: dict[str, float] = {}
        for p, node in self.part_nodes:
            try:
                out[p.name] = env[p.name] = ex.evaluate(node, env)
            except ex.ExprError as e:
                raise FormulaError(say("formula.part", formula=self.name, part=p.name, reason=e.said)) from None
        return out

    def shown_values(self, values: Mapping[str, ex.Value], extras: Mapping[str, Any] | None = None, *,
                     parts: Mapping[str, float] | None = None, result: float | None = None) -> dict[str, str]:
        """How each input, part and the result reads in text (teaching lines); ``parts``, ``result``: the caller's."""
        values = self.with_defaults(values)
        shown: dict[str, str] = {}
        for k, v in (extras or {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                shown[k] = fmt_number(float(v))
            elif isinstance(v, str):
                shown[k] = v
        for i in self.inputs:
            v = values.get(i.name)
            if v is not None:
                shown[i.name] = i.value_text(v)
        kinds = {p.name: p.kind for p in self.parts}
        for k, v in (self.part_values(values) if parts is None else parts).items():
            shown[k] = fmt_quantity(v, kinds[k])
        result = self.evaluate(**values) if result is None else result
        # a whole count is said exactly (46,296 GPUs, not 46300), as the worked solution's last line says it
        whole = self.unit == "count" and result >= 1e4 and result == round(result)
        shown["result"] = fmt_whole(result) if whole else fmt_quantity(result, self.unit)
        return shown

    def derivation(self, values: Mapping[str, ex.Value], extras: Mapping[str, Any] | None = None, *,
                   shown: Mapping[str, str] | None = None) -> Derivation:
        """What :meth:`worked` says in every language for these values: made once and passed to it for each
        language (a problem's step renders its solution in English and Chinese).  ``shown``: the
        :meth:`shown_values` of these values and extras when the caller has them already."""
        values = dict(self.with_defaults(values))
        parts, result = self.part_values(values), self.evaluate(**values)  # once: shown values, solution, parts
        if shown is None:
            shown = self.shown_values(values, extras, parts=parts, result=result)
        plain = self.at_defaults(values)  # the parts and via spell out the default conventions
        leads: list[tuple[str, Part]] = []
        via = None
        symbols = {**self.symbols, **{p.name: p.symbol for p in self.parts}}
        env: dict[str, ex.Value] = dict(values)
        if plain:
            for p, node in self.part_nodes:
                written = ex.render(node, symbols)
                lead = f"  {p.symbol}" + (f" = {written}" if written != p.symbol else "")
                subst = ex.render(node, symbols, env)
                if subst != written:
                    lead += f" = {subst}"
                leads.append((lead + f" = {result_text(parts[p.name], p.kind)}", p))
                env[p.name] = parts[p.name]
            if self.via_node is not None:
                via = "  = " + ex.render(self.via_node, symbols, env)
        return Derivation(values, shown, plain, tuple(leads), tuple(self._solution(values, result)), via)

    def worked(self, values: Mapping[str, ex.Value], lang: str = EN, *,
               decomposition: tuple[str, ...] | None = None, simplification: tuple[str, ...] | None = None,
               takeaway: str | None = None, extras: Mapping[str, Any] | None = None, also: str = "",
               derivation: Derivation | None = None) -> list[str]:
        """The whiteboard derivation in ``lang``: decomposition, intermediate parts, formula, substitution
        (then the same numbers grouped by the parts), result, simplification, takeaway.  An input with a
        default (a convention) is stated after the decomposition, whether given or defaulted.

        The overrides (a template's own decomposition, simplification or takeaway) replace the
        formula's; ``extras`` are further values their placeholders may name.  The formula line and
        the substitution line right after it are those of :meth:`solution`.  ``also`` is the result
        in the unit the question asks for (``989 TFLOPS``), shown after the result unless it is in it.
        ``derivation``: :meth:`derivation` of these values and extras, made already (for another language).
        """
        d = derivation if derivation is not None else self.derivation(values, extras)
        values, shown = d.values, d.shown
        # the formula's own decomposition, simplification and takeaway spell out the default conventions ("= 16Φ",
        # "16 bytes per parameter"): off them the convention line and the formula say it instead
        own = d.plain
        dec = decomposition if decomposition is not None else pick(lang, self.decomposition,
                                                                    self.decomposition_zh or None) if own else ()
        simp = simplification if simplification is not None else pick(lang, self.simplification,
                                                                        self.simplification_zh or None) if own else ()
        take = takeaway if takeaway is not None else pick(lang, self.takeaway, self.takeaway_zh or None) if own else ""
        lines = [fill(x, shown) for x in dec]
        lines += [self.convention_line(i, values[i.name], lang, values[i.default_from] if i.default_from else None)
                  for i in self.inputs if i.has_default and self.states(i, values[i.name])]
        for lead, p in d.parts:
            lines.append(pick(lang, f"{lead}  ({p.label_in(lang)})", f"{lead}（{p.label_in(lang)}）"))
        core = d.core
        lines += core[:2]
        if d.via is not None:
            lines.append(d.via)
        lines.append(core[2])
        if also and also not in core[2]:
            lines.append(f"  = {also}")
        lines += [fill(x, shown) for x in simp]
        if take:
            lines.append(pick(lang, TAKEAWAY[EN], TAKEAWAY[ZH]) + fill(take, shown))
        return lines

    @staticmethod
    def convention_line(i: Input, value: ex.Value, lang: str = EN, default_value: ex.Value | None = None) -> str:
        """``  bytes/param = 16 B (default)``: the value a convention input takes, and whether it is the default
        (``default_value``: the value of the input a default names, ``sender_copies`` = ``replicas``)."""
        c = i.choice_of(value)
        words = Twin(f": {c.words}", f"：{c.words_in(ZH)}") if c is not None else ""
        own = i.default_value if default_value is None else default_value
        default = i.stated(own) if default_value is None else f"{i.default_from} = {i.stated(own)}"
        if value == own:
            said = say("formula.at_default", symbol=i.shown, value=i.stated(value), words=words)
        else:
            said = say("formula.not_default", symbol=i.shown, value=i.stated(value), words=words, default=default)
        return "  " + said.text(lang)

    def check_via(self, values: Mapping[str, ex.Value]) -> None:
        """Raise ValueError unless ``via`` (the formula rewritten with its parts) gives the formula's value."""
        if self.via_node is None or not self.at_defaults(values):
            return
        values = self.with_defaults(values)  # a part may use a quiet convention the problem leaves at its default
        env = {**values, **self.part_values(values)}
        a, b = ex.evaluate(self.via_node, env), self.evaluate(**values)
        if abs(a - b) > 1e-9 * max(abs(a), abs(b), 1e-300):
            raise ValueError(f"{self.name}: via {self.via!r} gives {a}, the formula {b}")

    def misconception_values(self, **values: ex.Value) -> list[tuple[Misconception, float]]:
        """Each misconception that applies to these values, with the wrong answer it gives."""
        values = self.with_defaults(values)
        out = []
        for m in self.misconceptions:
            if not ex.names_in(m.node) <= set(values):
                continue  # needs a value this problem does not give (e.g. n_heads)
            try:
                out.append((m, ex.evaluate(m.node, values)))
            except ex.ExprError:
                continue
        return out

    def symbolic(self):
        """The sympy form (imports sympy on first use)."""
        return ex.to_sympy(self.node)


class FormulaError(ValueError):
    """A formula cannot be evaluated with the given inputs.

    ``err.said`` is the reason as :mod:`engine.messages` data (``err.text("zh")`` words it in Chinese);
    ``str(err)`` is the English.
    """

    def __init__(self, said: Said) -> None:
        self.said = said
        super().__init__(said.text())

    def text(self, lang: str = EN) -> str:
        return self.said.text(lang)


def result_text(value: float, kind: str) -> str:
    """``1.12 × 10¹² B (1.12 TB)``: base units, then the unit a person would use.

    A whole number is shown exactly, with its binary size where that is round:
    ``131,072 B (128 KiB)``, not ``131100 B (131.1 kB)`` (engine.units.fmt_whole).
    """
    base, uk = KINDS[kind], UNIT_KINDS[kind]
    if uk.percent:
        return f"{fmt_number(value)} ({fmt_quantity(value, kind)})"
    if uk.counted:
        return fmt_whole(value)
    human = binary_size(value) if uk.size else ""
    human = human or fmt_quantity(value, kind)
    plain = f"{fmt_whole(value)} {base}"
    return plain if human == plain else f"{plain} ({human})"


def _parse_trusted(text: str) -> ex.Node:
    """Formulas are our own text, but they go through the same checked parser."""
    import re

    names = {n: n for n in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text) if n not in ex.FUNCTIONS}
    return ex.parse(text, names, functions=ex.FUNCTIONS, max_len=1000)

