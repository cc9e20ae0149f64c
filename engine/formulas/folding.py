"""A formula written at chosen convention values: ``C = 8 × Φ × D`` for ``flops_per_param_token × Φ × D`` at 8.

A formula's line reads its plain form (:attr:`~engine.formulas.core.Formula.plain_expr`, written at the default
conventions) while its conventions are the defaults.  Under another value, a card must read that value in the
same plain form, not the general expression with the convention named (``k × Φ × D``) and not the default's
number: :func:`formula_line` substitutes the convention inputs' values into the full expression and folds what
is left constant (``(1 + 0)``, ``min(18 − 16, 20 − 18)``, ``((N − 1)/N)^0``, ``0 × Φ_policy``).

Our own few rules rather than sympy: sympy reorders the terms (``12Φ/N_dp + 6Φ``, not the plain form's order),
rewrites the ring's ``2 × (N − 1)/N × M / (2 × β)`` (whose 2β is the point) and costs 0.7 s to import, while
the card is drawn in the app.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import expr as ex


def _num(value: float) -> ex.Num:
    return ex.Num(value, repr(int(value)) if value == int(value) else repr(value))


def _is(node: ex.Node, value: float) -> bool:
    return isinstance(node, ex.Num) and node.value == value


def fold(node: ex.Node, env: Mapping[str, float]) -> ex.Node:
    """``node`` with the names of ``env`` replaced by their values and every constant part folded: a
    sub-expression of numbers becomes its number; ``x × 1``, ``x / 1``, ``x^1``, ``x + 0`` and ``x − 0`` become
    ``x``; ``x × 0`` and ``0 / x`` become 0; ``x^0`` becomes 1; a number multiplying from the right moves to
    the left (``Φ × 6`` reads ``6 × Φ``, as the plain forms write it)."""
    if isinstance(node, ex.Num):
        return node
    if isinstance(node, ex.Var):
        return _num(float(env[node.name])) if node.name in env else node
    if isinstance(node, ex.Neg):
        inner = fold(node.operand, env)
        return _num(-inner.value) if isinstance(inner, ex.Num) else ex.Neg(inner)
    if isinstance(node, ex.Call):
        args = tuple(fold(a, env) for a in node.args)
        if all(isinstance(a, ex.Num) for a in args):
            try:
                return _num(ex.evaluate(ex.Call(node.fn, args)))
            except ex.ExprError:
                pass
        return ex.Call(node.fn, args)
    left, right, op = fold(node.left, env), fold(node.right, env), node.op
    if isinstance(left, ex.Num) and isinstance(right, ex.Num):
        try:
            return _num(ex.evaluate(ex.Bin(op, left, right)))
        except ex.ExprError:
            return ex.Bin(op, left, right)
    if op == "*":
        if _is(left, 0) or _is(right, 0):
            return _num(0)
        if _is(left, 1):
            return right
        if _is(right, 1):
            return left
        if isinstance(right, ex.Num):
            return ex.Bin("*", right, left)
    if op == "/":
        if _is(right, 1):
            return left
        if _is(left, 0):
            return _num(0)
    if op in "+-" and _is(right, 0):
        return left
    if op == "+" and _is(left, 0):
        return right
    if op == "^":
        if _is(right, 1):
            return left
        if _is(right, 0):
            return _num(1)
    return ex.Bin(op, left, right)


def formula_line(formula, values: Mapping[str, ex.Value] | None = None) -> str:
    """``C = 8 × Φ × D``: the formula line with its convention inputs (those with a default) at ``values``; the
    plain form (:meth:`Formula.formula_text`) while they are all at their defaults."""
    full = formula.with_defaults(dict(values or {}))
    # quiet inputs (a convention's switch), and a shown convention input off its default (sender_copies = 1 under
    # broadcast, where the default is the replicas' count): the chosen value is written into the line
    off = {i.name for i in formula.inputs if i.convention and not i.quiet
           and full.get(i.name) != (full.get(i.default_from) if i.default_from else i.default_value)}
    if formula.at_defaults(full) and not off:
        return formula.formula_text()
    env = {i.name: float(v) for i in formula.inputs
           if (i.quiet or i.name in off) and isinstance(v := full.get(i.name), (int, float))}
    return f"{formula.result_symbol or formula.name} = {ex.render(fold(formula.node, env), formula.symbols)}"
