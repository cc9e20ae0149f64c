"""A small, safe arithmetic language: the one parser behind formulas and answers.

Text is parsed with Python's :mod:`ast` and then *checked against a whitelist*:
numbers, names the caller allows, ``+ - * / ** ^`` and unary minus, and calls
to a few named functions (``ceil``, ``floor``, ``min``, ``max``, ``sum``,
``len``, ``ln``, ``sqrt``; an answer only ``sqrt``).  Nothing is ever evaluated by Python: the checked tree is rebuilt as
our own immutable nodes and evaluated here, with bounds on length, nesting and
magnitude, so ``9**9**9**9`` or a 100,000-character string is answered with a
reason in microseconds.

The same tree renders itself as unicode (``2 × (n − 1) / n × M``), with numbers
substituted (the worked solution), and converts to a sympy expression on demand
(sympy is imported only then).

Why not simpleeval (1.0.8): it evaluates Python's own tree, so ``10^10`` is
XOR (``simple_eval("10^10") == 0``), and it keeps no tree of its own to render
as a worked solution or hand to sympy.
"""

from __future__ import annotations

import ast
import math
import re
import warnings
from collections.abc import Mapping, Sequence
from operator import add as _add
from operator import sub as _sub

from engine.patterns import pattern
from engine.records import NamedTuple

from .messages import Twin, say
from .units import PLAIN, dim_text, fmt_number

MAX_TEXT = 200  # characters of a typed answer
MAX_DEPTH = 24  # parentheses / operator nesting
MAX_NODES = 200
MAX_EXPONENT = 400.0  # |y| in x**y
MAX_MAGNITUDE = 1e150  # results beyond this are not whiteboard numbers


class ExprError(ValueError):
    """Text that is not a readable expression.

    ``err.said`` is the reason as an :class:`engine.messages.Msg` (English or
    Chinese with ``.text(lang)``); ``str(err)`` is the English.
    """

    def __init__(self, code: str, **params: object) -> None:
        self.said = say(code, **params)
        super().__init__(self.said.text())


# --------------------------------------------------------------------------- #
# Nodes


# Immutable and compared by value; NamedTuples rather than frozen dataclasses because they are several
# times cheaper to define, and the engine is imported before the app's first problem shows.
class Num(NamedTuple):
    value: float
    text: str  # the literal as written, for exact sympy rationals


class Var(NamedTuple):
    name: str


class Neg(NamedTuple):
    operand: Node


class Bin(NamedTuple):
    op: str  # one of + - * / ^
    left: Node
    right: Node


class Call(NamedTuple):
    fn: str
    args: tuple[Node, ...]


Node = Num | Var | Neg | Bin | Call
Value = float | list[float] | tuple[float, ...]

FUNCTIONS = frozenset({"ceil", "floor", "min", "max", "sum", "len", "sqrt", "ln"})  # ln: queueing tails (formulas)
ROOTS = frozenset({"sqrt"})  # the one function an answer may use: √(2δM) is how the interval is written

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "^"}
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3, "^": 4}


# --------------------------------------------------------------------------- #
# Parsing

_UNICODE_OPS = str.maketrans({"×": "*", "·": "*", "⋅": "*", "∗": "*", "÷": "/", "∕": "/", "⁄": "/",
                              "−": "-", "–": "-", "—": "-", "（": "(", "）": ")", "＋": "+",
                              "＊": "*", "／": "/", "－": "-", "＾": "^"})
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SUP_RUN = pattern(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+")  # compiled when first used (engine.patterns)
_TIMES_X = re.compile(r"(?<=[\d)])\s*[xX]\s*(?=[\d(.])")  # 16x70e9, (n-1) x 2
_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d,])")


def expand_superscripts(text: str) -> str:
    """``10⁹`` -> ``10**9`` (before any NFKC normalisation, which would make it ``109``)."""
    return _SUP_RUN.sub(lambda m: "**" + m.group(0).translate(_SUPERSCRIPTS), text)


# √(…) and √2.5 are sqrt(…): the root sign binds its bracket or the number right after it
_ROOT_SIGN = re.compile(r"√\s*(?:(?=\()|(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+))")


def _root(m: re.Match) -> str:
    return f"sqrt({m.group(1)})" if m.group(1) else "sqrt"


def normalise(text: str) -> str:
    """Whiteboard spellings to plain ASCII operators: ``×``, ``x``, ``÷``, ``−``, ``^``, ``1,120``, ``10⁹``, ``√``."""
    t = expand_superscripts(text.translate(_UNICODE_OPS))
    if "√" in t:
        t = _ROOT_SIGN.sub(_root, t)
    t = _TIMES_X.sub("*", t)
    t = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), t)
    return t.replace("^", "**").strip()


# The number is atomic (?>...): "2.0e1*Φ" must not backtrack to "2.0" and read "e1" as a name.
# (As text: compiled on first use by the re module, not at import; symbolic answers only.)
_IMPLICIT = r"(?<![A-Za-z_\u0370-\u03ff\d.])(?>(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?))\s*(?=[A-Za-z_\u0370-\u03ff(])"
_NAME_SPACE_NAME = r"(?<=[A-Za-z_\u0370-\u03ff\d])\s+(?=[A-Za-z_\u0370-\u03ff(])"


def insert_implicit_products(text: str) -> str:
    """Whiteboard products for symbolic answers: ``2Phi``, ``2 Phi``, ``Phi N``, ``2(n-1)``, ``Φ(1+x)``, ``)(``."""
    t = re.sub(_IMPLICIT, lambda m: m.group(1) + "*", text)
    t = re.sub(_NAME_SPACE_NAME, "*", t)
    t = re.sub(r"(?<=[A-Za-z_\u0370-\u03ff])\(", "*(", t)  # no functions in symbolic answers: Φ(2+x) is a product
    t = re.sub(r"\)\s*(?=[(A-Za-z_\u0370-\u03ff\d])", ")*", t)
    return t


_NON_DECIMAL = re.compile(r"(?<![\w.])0[xXoObB]\w")
# A literal with an exponent; "1e-400" underflows to 0 and is refused (it is not zero).
_EXPONENT_LITERAL = re.compile(r"(?<![\w.])(\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+")


# What the language is written with once normalised: words and numbers, spaces, operators, brackets, commas
_STRAY = re.compile(r"[^\w\s+\-*/().,]")


def stray_character(text: str) -> None:
    """Raise :class:`ExprError` for the first character the language has no use for, named as typed:
    ``#`` is not a comment (Python's parser would silently drop what follows it), ``;`` is stray."""
    m = _STRAY.search(text)
    if m is not None:
        raise ExprError("expr.hash" if m.group(0) == "#" else "expr.stray", char=m.group(0))


def _depth(text: str) -> int:
    depth = best = 0
    for ch in text:
        if ch == "(":
            depth += 1
            best = max(best, depth)
        elif ch == ")":
            depth -= 1
    return best


def parse(text: str, names: Mapping[str, str] | None = None, *, functions: frozenset[str] = frozenset(),
          max_len: int = MAX_TEXT) -> Node:
    """Parse ``text`` into a checked tree.

    ``names`` maps every name the text may use to the canonical variable name
    (aliases such as ``Phi``/``Φ``/``phi`` -> ``phi``); None allows no names.
    Raises :class:`ExprError` with a reason a person can act on.
    """
    if not text or not text.strip():
        raise ExprError("empty")
    if len(text) > max_len:
        raise ExprError("too_long", n=len(text), most=max_len)
    if _NON_DECIMAL.search(text.translate(_UNICODE_OPS)):  # before "x" is read as ×: 0x10 is not 0 × 10
        raise ExprError("expr.decimal")
    src = normalise(text)
    if not src:
        raise ExprError("empty")
    stray_character(src)
    if _depth(src) > MAX_DEPTH:
        raise ExprError("expr.nested", most=MAX_DEPTH)
    if src.count("(") != src.count(")"):
        raise ExprError("expr.parentheses")
    if _NON_DECIMAL.search(src):
        raise ExprError("expr.decimal")
    for m in _EXPONENT_LITERAL.finditer(src):
        if float(m.group(0)) == 0.0 and re.search(r"[1-9]", m.group(1)):
            raise ExprError("expr.number_too_small", text=m.group(0))
    try:
        with warnings.catch_warnings():  # "invalid decimal literal" and friends must not reach the terminal
            warnings.simplefilter("ignore")
            tree = ast.parse(src, mode="eval")
    except SyntaxError:
        raise ExprError("expr.syntax", text=text.strip()) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expr.complicated") from None
    count = [0]
    return _convert(tree.body, names or {}, functions, count, 0)


_tuple_new = tuple.__new__  # a node with every field given: no need of the records' argument checks


def _convert(node: ast.AST, names: Mapping[str, str], functions: frozenset[str], count: list[int],
             depth: int) -> Node:
    count[0] += 1
    if count[0] > MAX_NODES or depth > MAX_DEPTH * 2:
        raise ExprError("expr.complicated")
    # ast.parse makes no subclasses of its node types: a type test, not a chain of isinstance
    if type(node) is ast.BinOp:
        op = _OPS.get(type(node.op))
        if op is not None:
            return _tuple_new(Bin, (op, _convert(node.left, names, functions, count, depth + 1),
                                    _convert(node.right, names, functions, count, depth + 1)))
    elif type(node) is ast.Constant:
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ExprError("expr.not_a_number", value=v)
        try:
            f = float(v)
        except OverflowError:
            raise ExprError("expr.number_too_large") from None
        if not math.isfinite(f):
            raise ExprError("expr.number_too_large")
        return _tuple_new(Num, (f, repr(v) if isinstance(v, float) else str(v)))
    elif type(node) is ast.Name:
        if node.id in names:
            return _tuple_new(Var, (names[node.id],))
        if not names:
            raise ExprError("expr.unknown_word", name=node.id)
        raise ExprError("expr.unknown_name", name=node.id, known=", ".join(sorted(set(names))))
    elif type(node) is ast.UnaryOp and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _convert(node.operand, names, functions, count, depth + 1)
        return _tuple_new(Neg, (inner,)) if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
        if node.keywords:
            raise ExprError("expr.keywords")
        return Call(node.func.id, tuple(_convert(a, names, functions, count, depth + 1) for a in node.args))
    if isinstance(node, ast.Call):
        raise ExprError("expr.calls")
    if isinstance(node, ast.Tuple) and not names:
        raise ExprError("expr.comma")
    what = {ast.Compare: "comparisons", ast.BoolOp: "logic", ast.Attribute: "attributes",
            ast.Subscript: "indexing", ast.Tuple: "lists", ast.List: "lists"}.get(type(node), "that")
    raise ExprError("expr.not_allowed", what=say("expr.what." + what))


# --------------------------------------------------------------------------- #
# Evaluation


def evaluate(node: Node, env: Mapping[str, Value] | None = None) -> float:
    """The value of ``node``; raises :class:`ExprError` for 1/0, overflow, nan."""
    v = _eval(node, env or {})
    if isinstance(v, tuple):
        raise ExprError("expr.list_not_number")
    if not math.isfinite(v):
        raise ExprError("expr.result_not_finite")
    return _check(v)


def _check(x: float) -> float:
    if x != x:
        raise ExprError("expr.nan")
    if abs(x) > MAX_MAGNITUDE:
        raise ExprError("expr.too_large")
    return x


def _eval(node: Node, env: Mapping[str, Value]):
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Var):
        try:
            v = env[node.name]
        except KeyError:
            raise ExprError("expr.no_value", name=node.name) from None
        return tuple(float(x) for x in v) if isinstance(v, (list, tuple)) else float(v)
    if isinstance(node, Neg):
        return -_num(_eval(node.operand, env))
    if isinstance(node, Bin):
        a = _num(_eval(node.left, env))
        b = _num(_eval(node.right, env))
        op = node.op
        if op == "+":
            return _check(a + b)
        if op == "-":
            return _check(a - b)
        if op == "*":
            return _check(a * b)
        if op == "/":
            if b == 0:
                raise ExprError("expr.division_by_zero")
            return _check(a / b)
        # a base within [-1, 1] raised to a positive power stays within [-1, 1] (the chance that none of T tokens
        # picks an expert, (1 - k/E)^T, has T in the thousands): only a growing power is bounded
        if abs(b) > MAX_EXPONENT and not (abs(a) <= 1 and b > 0):
            raise ExprError("expr.exponent")
        if a == 0 and b < 0:
            raise ExprError("expr.division_by_zero")
        if a < 0 and b != int(b):
            raise ExprError("expr.negative_root")
        try:
            return _check(math.pow(a, b))
        except OverflowError:
            raise ExprError("expr.too_large") from None
    if isinstance(node, Call):
        args = [_eval(a, env) for a in node.args]
        flat: list[float] = []
        for a in args:
            flat.extend(a if isinstance(a, tuple) else (a,))
        fn = node.fn
        if fn == "len":
            return float(len(flat))
        if not flat:
            raise ExprError("expr.needs_value", fn=fn)
        if fn == "sum":
            return _check(math.fsum(flat))
        if fn == "min":
            return min(flat)
        if fn == "max":
            return max(flat)
        if len(flat) != 1:
            raise ExprError("expr.one_value", fn=fn)
        x = flat[0]
        if fn == "sqrt":
            if x < 0:
                raise ExprError("expr.negative_root")
            return math.sqrt(x)
        if fn == "ln":
            if x <= 0:
                raise ExprError("expr.ln_domain")
            return math.log(x)
        if abs(x - round(x)) <= 1e-9 * max(1.0, abs(x)):  # 6.000000000000001 is 6: float noise must not add a GPU
            return float(round(x))
        return float(math.ceil(x) if fn == "ceil" else math.floor(x))
    raise ExprError("expr.unreadable")  # pragma: no cover - nodes are closed


def _num(v) -> float:
    if isinstance(v, tuple):
        raise ExprError("expr.list_in_arithmetic")
    return v


# --------------------------------------------------------------------------- #
# Quantities: numbers that carry a dimension (engine.units.Dim) through + - * / ^

MAX_UNIT_POWER = 4  # (2 GB)^2 is B²; a unit to the 5th is not a whiteboard quantity


def _evalq(node: Node, env) -> tuple[float, tuple[int, ...]]:
    if isinstance(node, Num):
        return node.value, _PLAIN
    if isinstance(node, Var):
        try:
            return env[node.name]
        except KeyError:
            raise ExprError("expr.no_value", name=node.name) from None
    if isinstance(node, Neg):
        v, d = _evalq(node.operand, env)
        return -v, d
    if isinstance(node, Bin):
        return _binq(node.op, _evalq(node.left, env), _evalq(node.right, env))
    if isinstance(node, Call) and node.fn in ROOTS and len(node.args) == 1:
        return _binq("^", _evalq(node.args[0], env), (0.5, _PLAIN))
    raise ExprError("expr.calls")


def _binq(op: str, left: tuple[float, tuple[int, ...]], right: tuple[float, tuple[int, ...]]
          ) -> tuple[float, tuple[int, ...]]:
    """``left op right`` for two quantities (value, dimension): the one rule of :func:`_evalq`."""
    a, da = left
    b, db = right
    if op in "+-":
        if da != db:
            raise ExprError("expr.add_dims", left=_dim_said(da), right=_dim_said(db))
        return _check(a + b if op == "+" else a - b), da
    if op == "*":
        return _check(a * b), (da if db == _PLAIN else tuple(map(_add, da, db)))
    if op == "/":
        if b == 0:
            raise ExprError("expr.division_by_zero")
        return _check(a / b), (da if db == _PLAIN else tuple(map(_sub, da, db)))
    if db != _PLAIN:
        raise ExprError("expr.exponent_unit")
    if da != _PLAIN and abs(b) > MAX_UNIT_POWER:
        raise ExprError("expr.unit_power", most=MAX_UNIT_POWER)
    if da != _PLAIN and b != int(b):  # a root: √(s·h) is s, √s has no unit
        powers = [x * b for x in da]
        if not all(abs(p - round(p)) < 1e-9 for p in powers):
            raise ExprError("expr.odd_root", dims=_dim_said(da)) if abs(b * 2) == 1 \
                else ExprError("expr.unit_power", most=MAX_UNIT_POWER)
        v = _eval(Bin("^", Num(a, ""), Num(b, "")), {})
        return v, tuple(round(p) for p in powers)
    v = _eval(Bin("^", Num(a, ""), Num(b, "")), {})
    return v, tuple(x * int(b) for x in da)


def evaluate_quantities(node: Node, envs: Sequence[Mapping[str, tuple[float, tuple[int, ...]]]]
                        ) -> list[tuple[float, tuple[int, ...]] | ExprError]:
    """The value and dimension of ``node`` in each of ``envs`` (the readings of its units: each name a unit with
    its (factor, dimension)), in one walk of the tree: each item is the value and dimension, or the
    :class:`ExprError` that env raises.

    ``+``/``-`` need the same dimension, ``*``/``/`` combine them, ``^`` takes a plain exponent and raises a
    unit only to a whole power.  The same result as each env evaluated alone (the same value, or the same first
    error), at a fraction of the cost: a subtree whose names read the same in every env is worked out once."""
    first = envs[0]
    varying = {k for e in envs[1:] for k in e.keys() | first.keys() if e.get(k, _MISSING) != first.get(k, _MISSING)}
    out = _evalq_each(node, envs, varying)
    if not isinstance(out, list):
        out = [out] * len(envs)
    results: list[tuple[float, tuple[int, ...]] | ExprError] = []
    for r in out:
        if not isinstance(r, ExprError):
            v, d = r
            if not math.isfinite(v):
                r = ExprError("expr.result_not_finite")
            else:
                try:
                    r = _check(v), d
                except ExprError as e:
                    r = e
        results.append(r)
    return results


def _evalq_each(node: Node, envs, varying):
    """One result (the same for every env) or a list of one per env; a result is (value, dim) or an ExprError."""
    if isinstance(node, Num):
        return node.value, _PLAIN
    if isinstance(node, Var):
        if node.name in varying:
            return [_var_or_error(node, env) for env in envs]
        return _var_or_error(node, envs[0])
    if isinstance(node, Neg):
        inner = _evalq_each(node.operand, envs, varying)
        if isinstance(inner, list):
            return [r if isinstance(r, ExprError) else (-r[0], r[1]) for r in inner]
        return inner if isinstance(inner, ExprError) else (-inner[0], inner[1])
    if isinstance(node, Bin):
        left = _evalq_each(node.left, envs, varying)
        right = _evalq_each(node.right, envs, varying)
        op = node.op
        if not isinstance(left, list) and not isinstance(right, list):
            return _binq_or_error(op, left, right)
        if not isinstance(left, list):
            left = [left] * len(envs)
        if not isinstance(right, list):
            right = [right] * len(envs)
        out: list[tuple[float, tuple[int, ...]] | ExprError] = []
        for a, b in zip(left, right):  # _binq_or_error, inlined: this loop is most of the work
            if isinstance(a, ExprError):
                out.append(a)
            elif isinstance(b, ExprError):
                out.append(b)
            else:
                try:
                    out.append(_binq(op, a, b))
                except ExprError as e:
                    out.append(e)
        return out
    if isinstance(node, Call) and node.fn in ROOTS and len(node.args) == 1:
        inner = _evalq_each(node.args[0], envs, varying)
        if isinstance(inner, list):
            return [r if isinstance(r, ExprError) else _binq_or_error("^", r, (0.5, _PLAIN)) for r in inner]
        return _binq_or_error("^", inner, (0.5, _PLAIN))
    return ExprError("expr.calls")


_MISSING = object()


def _var_or_error(node: Var, env):
    try:
        return _evalq(node, env)
    except ExprError as e:
        return e


def _binq_or_error(op: str, left, right):
    """:func:`_binq`, or the first error on the way, in the order one walk of the tree meets it: left first."""
    if isinstance(left, ExprError):
        return left
    if isinstance(right, ExprError):
        return right
    try:
        return _binq(op, left, right)
    except ExprError as e:
        return e


_PLAIN = PLAIN


def _dim_said(d: tuple[int, ...]):
    text = dim_text(d)
    return Twin(text, text) if text else say("dim.plain")


def names_in(node: Node) -> set[str]:
    """Every variable name used by ``node``."""
    if isinstance(node, Var):
        return {node.name}
    if isinstance(node, Neg):
        return names_in(node.operand)
    if isinstance(node, Bin):
        return names_in(node.left) | names_in(node.right)
    if isinstance(node, Call):
        return set().union(*(names_in(a) for a in node.args)) if node.args else set()
    return set()


# --------------------------------------------------------------------------- #
# Rendering


def render(node: Node, symbols: Mapping[str, str] | None = None, env: Mapping[str, Value] | None = None) -> str:
    """Unicode text of ``node``.

    ``symbols`` maps variable names to how they are written (``phi`` -> ``Φ``).
    With ``env``, variables are replaced by their numbers (the substitution line
    of a worked solution).
    """
    return _render(node, symbols or {}, env)[0]


def _fmt_exact(x: float) -> str:
    """Short whole numbers exactly (a hidden size of 16384 is not "16380"); others to 4 significant figures.

    "Short" is at most 7 significant digits: a 23,756,537,856-byte intermediate
    reads better as 2.376 × 10¹⁰ on a whiteboard.
    """
    if x.is_integer() and abs(x) < 1e15 and len(str(int(abs(x))).rstrip("0")) <= 7:
        return fmt_number(x, 15)
    return fmt_number(x)


def _fmt_value(v: Value) -> tuple[str, int]:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt_exact(float(x)) for x in v) + "]", 9
    s = _fmt_exact(float(v))
    if s.startswith("-"):
        return s.replace("-", "−", 1), _PREC["neg"]
    if "×" in s:
        return s, _PREC["*"]
    # 10⁹ is itself a power: raised to one it needs brackets, (10⁹)^0.34, not 10⁹^0.34 (read as 10^(9^0.34))
    return s, (_PREC["^"] if s[-1] in "⁰¹²³⁴⁵⁶⁷⁸⁹" else 9)


def _render(node: Node, symbols: Mapping[str, str], env) -> tuple[str, int]:
    if isinstance(node, Num):
        return _fmt_value(node.value)
    if isinstance(node, Var):
        if env is not None and node.name in env:
            return _fmt_value(env[node.name])
        return symbols.get(node.name, node.name), 9
    if isinstance(node, Neg):
        s, p = _render(node.operand, symbols, env)
        return "−" + (f"({s})" if p <= _PREC["neg"] else s), _PREC["neg"]
    if isinstance(node, Call):
        return f"{node.fn}(" + ", ".join(_render(a, symbols, env)[0] for a in node.args) + ")", 9
    prec = _PREC[node.op]
    ls, lp = _render(node.left, symbols, env)
    rs, rp = _render(node.right, symbols, env)
    if node.op == "^":
        if lp <= prec:
            ls = f"({ls})"
        if isinstance(node.right, Num) and node.right.value == int(node.right.value) and abs(node.right.value) < 100:
            return ls + str(int(node.right.value)).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")), prec
        if rp < prec:
            rs = f"({rs})"
        return f"{ls}^{rs}", prec
    if lp < prec:
        ls = f"({ls})"
    if rp < prec or (rp == prec and node.op in "-/"):
        rs = f"({rs})"
    sym = {"+": " + ", "-": " − ", "*": " × ", "/": " / "}[node.op]
    return ls + sym + rs, prec


# --------------------------------------------------------------------------- #
# Symbolic form (sympy imported lazily: it costs ~0.7 s)


def to_sympy(node: Node, symbols: Mapping[str, object] | None = None):
    """A sympy expression for ``node``; builds positive symbols on demand."""
    import sympy

    cache: dict[str, object] = dict(symbols or {})

    def sym(name: str):
        if name not in cache:
            cache[name] = sympy.Symbol(name, positive=True)
        return cache[name]

    def go(n: Node):
        if isinstance(n, Num):
            try:
                return sympy.Rational(n.text)
            except (TypeError, ValueError):
                return sympy.Float(n.value)
        if isinstance(n, Var):
            return sym(n.name)
        if isinstance(n, Neg):
            return -go(n.operand)
        if isinstance(n, Call):
            args = [go(a) for a in n.args]
            fn = {"ceil": sympy.ceiling, "floor": sympy.floor, "min": sympy.Min, "max": sympy.Max,
                  "sqrt": sympy.sqrt, "ln": sympy.log}.get(n.fn)
            if fn is None:
                raise ExprError("expr.no_symbolic", fn=n.fn)
            return fn(*args)
        a, b = go(n.left), go(n.right)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b,
                "^": lambda: a**b}[n.op]()

    return go(node)
