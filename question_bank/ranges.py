"""Dated, sourced ranges templates draw from, read from question_bank/data/ranges.toml.

Dated, sourced ranges templates draw from: prices, MTBFs, PUEs, storage and link bandwidths, request
shapes (question_bank/data/ranges.toml, validated like the rest of the catalogue).

    from question_bank import ranges
    r = ranges.get("price_h100_ondemand")     # Range(low=1.99, high=6.88, unit="USD/GPU-h", as_of="2026-05", ...)
    price = ranges.draw(rng, "price_h100_ondemand")   # a value in [low, high], 2 significant figures

A problem states the value it drew (the learner is never asked to know a price) and, where it matters,
the range's date: ``f"{price} $/GPU-h ({r.as_of} cloud prices)"``.
"""

from __future__ import annotations

from engine.records import NamedTuple


class Range(NamedTuple):
    """One range: [low, high] in ``unit``, as of ``as_of`` (YYYY[-MM[-DD]]), with its source."""

    id: str
    name: str
    low: float
    high: float
    unit: str
    as_of: str
    source: str
    typical: float | None = None  # a representative point inside [low, high], where the source gives one
    data_date: str = ""  # when the underlying data is from, if not as_of
    confidence: str = ""  # high | medium | low
    note: str = ""


_BY_ID: dict[str, Range] = {}


def _load() -> dict[str, Range]:
    if not _BY_ID:
        from .catalogue_cache import builtin_entries

        for e in builtin_entries("ranges")["ranges"]:
            _BY_ID[e["id"]] = Range(e["id"], e["name"], e["low"], e["high"], e["unit"], e["as_of"], e["source"],
                                    e.get("typical"), e.get("data_date", ""), e.get("confidence", ""), e.get("note", ""))
    return _BY_ID


def get(range_id: str) -> Range:
    table = _load()
    try:
        return table[range_id]
    except KeyError:
        raise KeyError(f"unknown range {range_id!r} (one of {', '.join(table)})") from None


def draw(rng, range_id: str, sig: int = 2) -> float:
    """A value of the range drawn with ``rng`` (uniform in [low, high]), rounded to ``sig`` significant figures
    and kept inside the range; the range's value itself when low == high."""
    from engine.units import round_sig

    r = get(range_id)
    if r.low == r.high:
        return r.low
    value = round_sig(rng.uniform(r.low, r.high), sig)
    return min(max(value, r.low), r.high)
