"""The noun an expression of counts counts: ``8 GPUs/node × 512 nodes`` is GPUs, ``16 B/param × 70e9 params`` none.

Apart from engine.count_nouns, which engine.units imports to build its count units: this module walks the
expression tree, and engine.expr imports the units (through its messages).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import expr as ex
from .count_nouns import Noun, of_symbol

Powers = dict[Noun, int]


def noun_of(node: ex.Node, slots: Mapping[str, str]) -> Noun | None:
    """The one noun an expression's result counts, or None: none typed, nouns that cancel
    (``16 B/param × 70e9 params``), or a mix that names no one thing (``GPUs × nodes``, ``8 GPUs + 2 nodes``).

    ``slots`` maps the placeholder names of the reader's tree to the unit symbols they stand for.
    """
    powers = _powers(node, slots)
    if powers is None or len(powers) != 1:
        return None
    (noun, power), = powers.items()
    return noun if power == 1 else None


def _powers(node: ex.Node, slots: Mapping[str, str]) -> Powers | None:
    """The nouns of ``node`` with their powers; None where they do not combine (a sum of different nouns)."""
    if isinstance(node, ex.Num):
        return {}
    if isinstance(node, ex.Var):
        return of_symbol(slots[node.name]) if node.name in slots else {}
    if isinstance(node, ex.Neg):
        return _powers(node.operand, slots)
    if isinstance(node, ex.Call):  # a square root halves every power; an odd one names nothing
        inner = _powers(node.args[0], slots) if len(node.args) == 1 else None
        if inner is None or any(p % 2 for p in inner.values()):
            return None
        return {n: p // 2 for n, p in inner.items()}
    if not isinstance(node, ex.Bin):
        return None
    left = _powers(node.left, slots)
    if node.op == "^":
        if left is None or not left:
            return left
        exponent = node.right.value if isinstance(node.right, ex.Num) else None
        if exponent is None or exponent != int(exponent):
            return None
        return {n: int(p * exponent) for n, p in left.items()}
    right = _powers(node.right, slots)
    if left is None or right is None:
        return None
    if node.op in "+-":  # 8 GPUs + 8 GPUs is GPUs; a noun added to a bare number keeps its noun
        return left if left == right or not right else right if not left else None
    sign = 1 if node.op == "*" else -1
    out = dict(left)
    for n, p in right.items():
        out[n] = out.get(n, 0) + sign * p
    return {n: p for n, p in out.items() if p}
