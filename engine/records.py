"""Immutable records that cost almost nothing to define: ``@frozen`` in place of ``@dataclass(frozen=True)``.

Why our own (start-up time): ``dataclasses.dataclass`` writes the source of six methods for
each class and compiles it with ``exec`` while the module is imported, and compiling is the dearest
thing a Python program does at start-up: the app's records (``Ask``, ``Formula``, ``Step``,
``Verdict``...) cost 4-11 million instructions each, some 80 million of the first problem's start-up
(callgrind; docs/performance.md).  ``@frozen`` builds the same behaviour from a few shared functions and
closures, compiling nothing: ``attrs`` and ``msgspec`` were considered, but ``attrs`` compiles its
methods too and ``msgspec`` is a compiled dependency for what is 100 lines here.

A ``@frozen`` class behaves as the frozen dataclass it replaces: fields are the class's annotations
in order, a class attribute gives a default, ``field(default_factory=...)`` (``dataclasses.field``)
a fresh default per instance; ``__init__`` takes fields by position or name and calls
``__post_init__`` when there is one; assigning or deleting an attribute raises
``dataclasses.FrozenInstanceError``; ``==`` compares the fields of two instances of the same class,
``hash`` hashes them, ``repr`` shows them (leaving out ``field(compare=False)`` and
``field(repr=False)`` ones, as a dataclass does).  Subclasses add their annotations after the parent's.
:func:`replace` and :func:`fields` stand for ``dataclasses.replace`` and ``dataclasses.fields``;
``@mutable`` is ``@dataclass`` (assignable fields, unhashable).

:data:`NamedTuple` is ``typing.NamedTuple`` for the same reason: ``typing`` compiles every field's
annotation to check it and ``collections.namedtuple`` compiles its ``__new__``; this one builds the
same tuple class (fields, defaults, ``_make``, ``_replace``, ``_asdict``, ``_fields``, pickling, the
class body's methods) compiling nothing.  Type checkers are shown ``typing.NamedTuple`` itself.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, FrozenInstanceError, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform

if TYPE_CHECKING:  # _collections ships no stubs: its _tuplegetter is a read-only descriptor like this property
    def _tuplegetter(index: int, doc: str) -> property: ...
else:
    try:  # the C accessor collections.namedtuple uses for its fields
        from _collections import _tuplegetter
    except ImportError:  # another interpreter: a property does the same, a little slower
        def _tuplegetter(index: int, doc: str):
            return property(itemgetter(index), doc=doc)

_set = object.__setattr__


def _init_for(cls: type, names: tuple[str, ...], defaults: dict, factories: dict):
    """The ``__init__`` of ``cls``: fields by position, then by name, then their defaults."""
    count = len(names)
    post_init = getattr(cls, "__post_init__", None)
    factory_items = tuple(factories.items())
    known = frozenset(names)

    def __init__(self, *args, **kwargs):
        values = defaults.copy()
        if args:
            if len(args) > count:
                raise TypeError(f"{cls.__name__}() takes {count} positional arguments but {len(args)} were given")
            values.update(zip(names, args))
            if kwargs and not kwargs.keys().isdisjoint(names[:len(args)]):
                twice = next(n for n in names[:len(args)] if n in kwargs)
                raise TypeError(f"{cls.__name__}() got multiple values for argument {twice!r}")
        values.update(kwargs)
        for name, factory in factory_items:
            if name not in values:
                values[name] = factory()
        if len(values) != count or (kwargs and not known.issuperset(kwargs)):
            unexpected = [n for n in kwargs if n not in names]
            if unexpected:
                raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {unexpected[0]!r}")
            missing = next(n for n in names if n not in values)
            raise TypeError(f"{cls.__name__}() missing required argument: {missing!r}")
        _set(self, "__dict__", values)  # (a mutable record's __setattr__ is object's: the same)
        if post_init is not None:
            post_init(self)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _values(self) -> tuple:
    return tuple(self.__dict__[name] for name in self.__record_compared__)


def __eq__(self, other):
    if other.__class__ is self.__class__:
        return _values(self) == _values(other)
    return NotImplemented


def __hash__(self):
    return hash(_values(self))


def __repr__(self):
    shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self.__record_shown__)
    return f"{self.__class__.__qualname__}({shown})"


def __setattr__(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def __delattr__(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")


_Record = TypeVar("_Record", bound=type)


@dataclass_transform(frozen_default=True, field_specifiers=(Field, field))
def frozen(cls: _Record) -> _Record:
    """The class ``cls`` made an immutable record (see the module docstring)."""
    return _record(cls, frozen=True)


@dataclass_transform(field_specifiers=(Field, field))
def mutable(cls: _Record) -> _Record:
    """The class ``cls`` made a record whose fields can be assigned (``@dataclass``): unhashable."""
    return _record(cls, frozen=False)


def _record(cls: Any, frozen: bool) -> Any:
    names: list[str] = []
    defaults: dict = {}
    factories: dict = {}
    hidden: set[str] = set()  # field(repr=False)
    uncompared: set[str] = set()  # field(compare=False)
    for base in reversed(cls.__mro__[1:]):  # a parent record's fields come first
        for name in getattr(base, "__record_fields__", ()):
            if name not in names:
                names.append(name)
        defaults.update(getattr(base, "__record_defaults__", {}))
        factories.update(getattr(base, "__record_factories__", {}))
        hidden.update(n for n in getattr(base, "__record_fields__", ()) if n not in base.__record_shown__)
        uncompared.update(n for n in getattr(base, "__record_fields__", ()) if n not in base.__record_compared__)
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if isinstance(annotation, str) and annotation.startswith(("ClassVar", "typing.ClassVar")):
            continue
        if name not in names:
            names.append(name)
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            if not default.repr:
                hidden.add(name)
            if not default.compare:
                uncompared.add(name)
            if default.default_factory is not MISSING:
                factories[name] = default.default_factory
            elif default.default is not MISSING:
                defaults[name] = default.default
            delattr(cls, name)
        elif default is not MISSING:
            if default.__class__ in (list, dict, set):
                raise ValueError(f"mutable default {type(default).__name__} for field {name}: "
                                 "use field(default_factory=...)")
            defaults[name] = default
    required_after_default = [n for i, n in enumerate(names)
                              if n not in defaults and n not in factories
                              and any(m in defaults or m in factories for m in names[:i])]
    if required_after_default:
        raise TypeError(f"non-default argument {required_after_default[0]!r} follows default argument")
    cls.__record_fields__ = tuple(names)
    cls.__record_defaults__ = defaults
    cls.__record_factories__ = factories
    cls.__record_shown__ = tuple(n for n in names if n not in hidden)
    cls.__record_compared__ = tuple(n for n in names if n not in uncompared)
    cls.__match_args__ = tuple(names)  # type: ignore[misc]  # read-only to mypy; set per class as dataclass does
    cls.__init__ = _init_for(cls, tuple(names), defaults, factories)
    for method in (__eq__, __repr__) + ((__setattr__, __delattr__) if frozen else ()):
        if method.__name__ not in cls.__dict__:
            setattr(cls, method.__name__, method)
    own_hash = cls.__dict__.get("__hash__", MISSING)
    if own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__):
        # (defining __eq__ in a class body sets its __hash__ to None: as a dataclass does)
        cls.__hash__ = __hash__ if frozen else None
    return cls


def fields(record) -> tuple[str, ...]:
    """The field names of a record or record class, in order."""
    return record.__record_fields__


def replace(record, /, **changes):
    """A copy of ``record`` with ``changes`` (``dataclasses.replace`` for :func:`frozen` records)."""
    for name in record.__record_fields__:
        if name not in changes:
            changes[name] = record.__dict__[name]
    return record.__class__(**changes)


# ---------------------------------------------------------------------------- named tuples
_UNSET = object()  # a field not given yet


def _tuple_class(typename: str, qualname: str, module: str, names: tuple[str, ...], defaults: dict,
                 body: dict) -> type:
    """A tuple class with fields ``names`` (``defaults``: the trailing ones' values) and ``body``'s members."""
    count = len(names)
    tuple_new = tuple.__new__
    first_default = count - len(defaults)
    default_values = tuple(defaults[n] for n in names[first_default:])
    position = {name: i for i, name in enumerate(names)}

    def __new__(cls, *args, **kwargs):
        given = len(args)
        if not kwargs:
            if given == count:
                return tuple_new(cls, args)
            if first_default <= given < count:  # the trailing defaults left out
                return tuple_new(cls, args + default_values[given - first_default:])
        if given > count:
            raise TypeError(f"{typename}() takes {count} positional arguments but {given} were given")
        values = [*args, *(_UNSET,) * (count - given)]
        for name, value in kwargs.items():
            i = position.get(name)
            if i is None:
                raise TypeError(f"{typename}() got an unexpected keyword argument {name!r}")
            if i < given:
                raise TypeError(f"{typename}() got multiple values for argument {name!r}")
            values[i] = value
        for i in range(given, count):
            if values[i] is _UNSET:
                if i < first_default:
                    raise TypeError(f"{typename}() missing required argument: {names[i]!r}")
                values[i] = default_values[i - first_default]
        return tuple_new(cls, values)

    def _make(cls, iterable):
        made = tuple_new(cls, iterable)
        if len(made) != count:
            raise TypeError(f"Expected {count} arguments, got {len(made)}")
        return made

    def _replace(self, /, **changes):
        made = self._make(map(changes.pop, names, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return made

    def __repr__(self):
        return f"{self.__class__.__name__}({', '.join(f'{n}={v!r}' for n, v in zip(names, self))})"

    def _asdict(self):
        return dict(zip(names, self))

    def __getnewargs__(self):
        return tuple(self)

    for method in (__new__, _replace, __repr__, _asdict, __getnewargs__, _make):
        method.__qualname__ = f"{qualname}.{method.__name__}"
    ns = {"__doc__": f"{typename}({', '.join(names)})", "__slots__": (), "_fields": names,
          "_field_defaults": defaults, "__match_args__": names, "__new__": __new__, "_make": classmethod(_make),
          "_replace": _replace, "__repr__": __repr__, "_asdict": _asdict, "__getnewargs__": __getnewargs__,
          "__module__": module, "__qualname__": qualname}
    for index, name in enumerate(names):
        ns[name] = _tuplegetter(index, f"Alias for field number {index}")
    ns.update(body)
    return type(typename, (tuple,), ns)


_NOT_COPIED = frozenset({"__module__", "__qualname__", "__orig_bases__", "__dict__", "__weakref__"})


def _named_tuple(typename: str, namespace: dict) -> type:
    annotations = namespace.get("__annotations__", {})
    names = tuple(annotations)
    defaults = {n: namespace[n] for n in names if n in namespace}
    if defaults and list(defaults) != list(names[len(names) - len(defaults):]):
        raise TypeError(f"{typename}: a field without a default follows one with a default")
    body = {k: v for k, v in namespace.items() if k not in _NOT_COPIED and k not in defaults}
    return _tuple_class(typename, namespace.get("__qualname__", typename), namespace.get("__module__", __name__),
                        names, defaults, body)


class _NamedTupleMeta(type):
    def __new__(mcls, typename, bases, namespace):
        return _named_tuple(typename, namespace)


if TYPE_CHECKING:
    from typing import NamedTuple
else:
    def NamedTuple(typename, fields=(), /):  # noqa: N802 - typing's name, in typing's two forms
        """``class Point(NamedTuple): x: int; y: int = 0`` as typing's, or ``NamedTuple("Point", [("x", int)])``."""
        return _tuple_class(typename, typename, __name__, tuple(n for n, _ in fields), {}, {})

    _NamedTupleBase = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
    NamedTuple.__mro_entries__ = lambda bases: (_NamedTupleBase,)
