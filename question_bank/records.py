"""``@record``: an immutable record class (a named tuple) from an annotated class body.

The catalogue's records (GPU, Link, Model) are named tuples: immutable, compared by value, and cheap to
define at import, which the app's first problem waits for (benchmarks/bench_startup.py).  ``typing.NamedTuple``
checks every annotation when the class is defined (compiling each string annotation: most of its cost for
records of 20+ fields); this builds the same class from ``collections.namedtuple`` without those checks.
"""

from __future__ import annotations

from collections import namedtuple

_SKIP = frozenset({"__dict__", "__weakref__", "__annotations__"})


def record(cls: type) -> type:
    """``cls`` as a named tuple: its annotated names are the fields (those with a value are defaults, which
    must come last), its methods, properties and docstring are kept."""
    fields = list(cls.__dict__.get("__annotations__", {}))
    defaults = [cls.__dict__[f] for f in fields if f in cls.__dict__]
    base = namedtuple(f"_{cls.__name__}Fields", fields, defaults=defaults)
    body = {k: v for k, v in cls.__dict__.items() if k not in _SKIP and k not in fields}
    body["__slots__"] = ()
    body["__annotations__"] = cls.__dict__.get("__annotations__", {})
    return type(cls.__name__, (base,), body)
