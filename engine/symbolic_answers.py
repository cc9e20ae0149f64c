"""Symbolic answers: reading a formula such as ``2Φ + 14Φ/N`` with the names a question accepts."""

from __future__ import annotations

from collections.abc import Mapping

from . import expr as ex
from .answers import Unreadable, clean
from .messages import say

# Spellings of the parameter count that always name ``phi``.
PHI_ALIASES: dict[str, str] = {"Φ": "phi", "φ": "phi", "ϕ": "phi", "phi": "phi", "Phi": "phi", "PHI": "phi"}


def expression_names(aliases: Mapping[str, str]) -> dict[str, str]:
    """Every accepted spelling -> canonical name: ``aliases``, the canonical names themselves, Φ/phi/Phi."""
    names = dict(PHI_ALIASES)
    names.update({v: v for v in aliases.values()})
    names.update(aliases)
    return names


def parse_expression(text: str, aliases: Mapping[str, str]) -> ex.Node | Unreadable:
    """Parse a symbolic answer such as ``2Φ + 14Φ/N``.

    ``aliases`` maps spellings (``N``, ``N_dp``) to canonical names; the
    canonical names themselves and ``Φ``/``phi``/``Phi`` are always accepted.
    Implicit products (``2Φ``, ``2 phi``, ``Φ N``, ``2(n-1)``) are read as
    on a whiteboard.  No functions: only numbers, names and ``+ - * / ^``.
    """
    if not isinstance(text, str) or not text.strip():
        return Unreadable(str(text or ""), say("empty"))
    if len(text) > ex.MAX_TEXT:
        return Unreadable(text[:40] + "…", say("too_long", n=len(text), most=ex.MAX_TEXT))
    t = ex.insert_implicit_products(ex.normalise(clean(text)))
    try:
        return ex.parse(t, expression_names(aliases))
    except ex.ExprError as e:
        if e.said.code == "expr.syntax":  # said of the text as typed, not of its implicit products
            return Unreadable(text, say("expr.syntax", text=clean(text)))
        return Unreadable(text, e.said)
