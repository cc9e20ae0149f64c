"""engine.records.frozen behaves as the frozen dataclass it replaces (records defined without
compiling code at import)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.records import fields, frozen, replace


def pair(decorate):
    """The same class body under ``decorate``: a required field, defaults, a factory, hidden and uncompared ones."""

    class Point:
        """A point."""

        x: int
        y: int = 0
        tags: list = field(default_factory=list)
        note: str = field(default="", repr=False)
        cache: int = field(default=0, compare=False)

        @property
        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

    return decorate(Point)


DC = pair(dataclass(frozen=True))
FR = pair(frozen)
ints = st.integers(-5, 5)


@given(ints, ints, ints, ints, ints, ints)
def test_equality_hash_and_repr_are_the_dataclass_ones(x1, y1, c1, x2, y2, c2):
    a, b = FR(x1, y1, (), cache=c1), FR(x2, y=y2, tags=(), cache=c2)
    da, db = DC(x1, y1, (), cache=c1), DC(x2, y=y2, tags=(), cache=c2)
    assert (a == b) == (da == db)
    assert (hash(a) == hash(b)) if a == b else True
    assert repr(a).replace("Point", "") == repr(da).replace("Point", "")  # (qualnames differ: two classes)


def test_construction_errors_match_dataclass():
    for cls in (FR, DC):
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls(1, 2, [], "", 0, 9)
        with pytest.raises(TypeError):
            cls(1, x=2)
        with pytest.raises(TypeError):
            cls(1, z=2)
        with pytest.raises(TypeError):
            cls(y=1, z=2)  # one unknown and one missing: still refused


def test_frozen_defaults_and_factories():
    a = FR(1)
    assert (a.x, a.y, a.tags, a.note, a.cache, a.norm) == (1, 0, [], "", 0, 1)
    assert FR(1).tags is not a.tags
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.x
    assert FR(1, cache=1) == FR(1, cache=2)  # compare=False
    assert fields(a) == fields(FR) == ("x", "y", "tags", "note", "cache")
    assert FR.__match_args__ == ("x", "y", "tags", "note", "cache")
    assert FR.__doc__ == "A point."


def test_replace_copy_and_pickle():
    a = FR(1, 2, (3,), "n", 4)
    b = replace(a, y=5)
    assert (b.x, b.y, b.tags, b.note, b.cache) == (1, 5, (3,), "n", 4) and a.y == 2
    with pytest.raises(TypeError):
        replace(a, z=1)
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    assert pickle.loads(pickle.dumps(Module.point(1))) == Module.point(1)


def test_inheritance_post_init_and_own_methods():
    @frozen
    class Base:
        a: int
        b: int = 1

    @frozen
    class Child(Base):
        c: int = 2

        def __post_init__(self):
            if self.c < 0:
                raise ValueError("c")

    assert fields(Child) == ("a", "b", "c") and Child(0, c=3) == Child(0, 1, 3)
    with pytest.raises(ValueError):
        Child(0, c=-1)

    @frozen
    class Own:
        a: int

        def __eq__(self, other):
            return True

        __hash__ = object.__hash__

    assert Own(1) == Own(2)  # its own methods are kept
    assert Own.__eq__ is not FR.__eq__ and Own.__hash__ is object.__hash__


def test_mutable_default_and_order_are_refused():
    with pytest.raises(ValueError):
        @frozen
        class Bad:
            a: list = []
    with pytest.raises(TypeError):
        @frozen
        class Order:
            a: int = 0
            b: int


class Module:
    """A module-level record, for pickling."""

    @staticmethod
    def point(x):
        return _Pickled(x)


@frozen
class _Pickled:
    x: int


# ---------------------------------------------------------------------------- named tuples
def tuple_pair():
    import typing

    from engine.records import NamedTuple as Cheap

    made = []
    for base in (typing.NamedTuple, Cheap):
        class Given(base):
            """A given."""

            name: str
            value: float
            unit: str = ""
            note: object = None

            @property
            def shown(self) -> str:
                return f"{self.value} {self.unit}"

            def twice(self) -> float:
                return 2 * self.value

        made.append(Given)
    return made


TYPING_NT, CHEAP_NT = tuple_pair()


@given(st.text(max_size=3), st.floats(allow_nan=False), st.text(max_size=3))
def test_named_tuples_behave_as_typings(name, value, unit):
    a, b = TYPING_NT(name, value, unit=unit), CHEAP_NT(name, value, unit=unit)
    assert tuple(a) == tuple(b) and a == b and hash(a) == hash(b) and repr(a) == repr(b)
    assert (b.name, b.value, b.unit, b.note, b.shown, b.twice()) == (a.name, a.value, a.unit, a.note, a.shown, a.twice())
    assert b._replace(unit="x") == a._replace(unit="x") and b._asdict() == a._asdict()
    assert CHEAP_NT._make(tuple(a)) == b and CHEAP_NT._fields == TYPING_NT._fields
    assert CHEAP_NT._field_defaults == TYPING_NT._field_defaults and CHEAP_NT.__match_args__ == TYPING_NT.__match_args__
    assert isinstance(b, tuple) and CHEAP_NT.__doc__ == "A given."
    name_, value_, unit_, note_ = b
    assert (name_, value_, unit_, note_) == (name, value, unit, None)


def test_named_tuple_errors_match_typings():
    for cls in (TYPING_NT, CHEAP_NT):
        for bad in ((), ("a",), ("a", 1, "u", None, 5)):
            with pytest.raises(TypeError):
                cls(*bad)
        with pytest.raises(TypeError):
            cls("a", 1, name="b")
        with pytest.raises(TypeError):
            cls("a", 1, colour="b")
        with pytest.raises(ValueError):
            cls("a", 1)._replace(colour=2)
        with pytest.raises(TypeError):
            cls._make(("a",))
        with pytest.raises(AttributeError):
            cls("a", 1).name = "b"
    with pytest.raises(TypeError):
        from engine.records import NamedTuple

        class Order(NamedTuple):
            a: int = 0
            b: int


def test_named_tuple_pickles_and_keeps_its_methods():

    assert pickle.loads(pickle.dumps(_Point(1, 2))) == _Point(1, 2) and type(pickle.loads(pickle.dumps(_Point(1)))) is _Point
    assert _Point(1).y == 0 and _Point._fields == ("x", "y") and _Point(1, 2).total() == 3


from engine.records import NamedTuple as _NT  # noqa: E402 - module-level classes, for pickling


class _Point(_NT):
    x: int
    y: int = 0

    def total(self) -> int:
        return self.x + self.y
