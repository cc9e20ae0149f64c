"""A streaming reader of one JSON object whose big members are lists: ``drill import`` of a long history.

An export document (docs/saves.md) is one object; its ``reviews`` list
grows with the history (200,000 rows: ~120 MB of text, 2-3x that as Python
objects).  :class:`ObjectStream` reads the file in chunks and yields the
object's members one at a time; a member named in ``streamed`` whose value is
a list is yielded as an iterator over its elements, each parsed when reached,
so only one element (and one chunk of text) sits in memory at a time.

Why our own and not a library (ijson and the like): each value is parsed by the
standard library's C scanner (``json.JSONDecoder.raw_decode``), so numbers,
strings, escapes and error messages are exactly those of ``json.loads`` (the
reader the import used before: a document it accepted still imports, with the
same values), a key given twice is refused at every level (as the save files
are read: :mod:`.sealed`), and no dependency is added.  What is ours is only the
object's and the lists' punctuation between the values, and the positions.

Errors are :class:`StreamError` with the line and column where the file went
wrong; a value larger than its bound is refused before it is read whole.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from .sealed import Broken, no_duplicates

CHUNK = 1 << 16  # characters read at a time
_WS = " \t\n\r"
_DECODER = json.JSONDecoder(object_pairs_hook=no_duplicates)
_NEAR_END = 16  # an error this close to the end of what is read may be a value cut by the chunk: read on


# what may follow a number's digits in the chunk's last characters while the number goes on ("1.3" "e+16")
_NUMBER_TAIL = frozenset("0123456789eE+-.")


class StreamError(ValueError):
    """Why the text is not the JSON expected: ``kind`` is ``"json"`` (not valid JSON: ``where`` says the line and
    column), ``"deep"`` (nested too deeply), ``"large"`` (a value over its bound; with no ``where``: the file
    over its bound), ``"read"`` (the file could not be read on: the reason is the system's) or ``"shape"`` (valid JSON, but
    not an object); ``str()`` is the reason in English."""

    def __init__(self, kind: str, reason: str, where: str = ""):
        super().__init__(f"{reason} ({where})" if where else reason)
        self.kind, self.reason, self.where = kind, reason, where


class ObjectStream:
    """The members of the JSON object in the binary file ``f``, read ``CHUNK`` characters at a time.

    ``limit``: the most characters one value (or one element of a streamed list) may take; ``max_bytes``: the
    most bytes read from ``f`` (None: no bound).
    """

    def __init__(self, f: BinaryIO, *, limit: int, chunk: int | None = None, max_bytes: int | None = None):
        self._f, self._limit, self._chunk, self._max_bytes = f, limit, chunk or CHUNK, max_bytes
        self._text = codecs.getincrementaldecoder("utf-8")("strict")
        self._buf, self._pos = "", 0
        self._eof = False
        self._line, self._col = 1, 1  # where _buf[0] is in the file
        self._bytes = 0
        self.start = 0  # where the last value read began (in the buffer: ``where(stream.start)`` until the next read)

    # -- the text ------------------------------------------------------------ #

    def _fill(self, at_least: int = 0) -> bool:
        """Drop what was read, read at least one more chunk (``at_least`` characters more if the file has them);
        False at the end of the file."""
        if self._eof:
            return False
        done = self._buf[:self._pos]
        if (lines := done.count("\n")):
            self._line += lines
            self._col = len(done) - done.rfind("\n")
        else:
            self._col += len(done)
        self._buf, self._pos = self._buf[self._pos:], 0
        want = len(self._buf) + max(at_least, self._chunk)
        while len(self._buf) < want:
            try:
                raw = self._f.read(self._chunk)
            except OSError as e:  # not a write: said as reading (the import's folder is not the cause)
                raise StreamError("read", e.strerror or str(e)) from None
            try:
                self._buf += self._text.decode(raw, final=not raw)
            except UnicodeDecodeError as e:
                raise StreamError("json", f"not UTF-8 text ({e.reason} at byte {self._bytes + e.start})") from None
            self._bytes += len(raw)
            if self._max_bytes is not None and self._bytes > self._max_bytes:
                raise StreamError("large", f"longer than {self._max_bytes:,} bytes")
            if not raw:
                self._eof = True
                break
        return True

    def where(self, pos: int | None = None) -> str:
        """``line 12 column 5`` of position ``pos`` of the buffer (default: the reading position)."""
        pos = self._pos if pos is None else pos
        before = self._buf[:pos]
        if (lines := before.count("\n")):
            return f"line {self._line + lines} column {pos - before.rfind(chr(10))}"
        return f"line {self._line} column {self._col + pos}"

    def _peek(self) -> str:
        """The next character that is not white space ('' at the end of the file), not consumed."""
        while True:
            buf, i = self._buf, self._pos
            n = len(buf)
            while i < n and buf[i] in _WS:
                i += 1
            self._pos = i
            if i < n:
                return buf[i]
            if not self._fill():
                return ""

    def _take(self, expected: str, what: str) -> None:
        ch = self._peek()
        if ch != expected:
            found = f"found {ch!r}" if ch else "the file ends"
            raise StreamError("json", f"expecting {what}, {found}", self.where())
        self._pos += 1

    def value(self, limit: int | None = None) -> Any:
        """The next JSON value, whole (at most ``limit`` characters: default the stream's)."""
        limit = self._limit if limit is None else limit
        if not self._peek():
            raise StreamError("json", "expecting a value, the file ends", self.where())
        while True:
            start, n = self._pos, len(self._buf)
            try:
                value, end = _DECODER.raw_decode(self._buf, start)
            except json.JSONDecodeError as e:  # a value cut at the end of the chunk, or an error of the file
                cut = not self._eof and (e.pos >= n - _NEAR_END or e.msg.startswith("Unterminated string"))
                if not cut:
                    raise StreamError("json", e.msg, self.where(e.pos)) from None
            except Broken as e:  # a key given twice
                raise StreamError("json", str(e), self.where(start)) from None
            except RecursionError:
                raise StreamError("deep", "nested too deeply", self.where(start)) from None
            else:
                # a number that ends the chunk may go on in the next: "1.3e" is read as 1.3 with "e" left over
                if self._eof or (end < n and not (isinstance(value, (int, float)) and _NUMBER_TAIL.issuperset(
                        self._buf[end:n]))):
                    self._pos, self.start = end, start
                    return value
            if n - start > limit:
                raise StreamError("large", f"a value larger than {limit:,} characters", self.where(start))
            self._fill(at_least=n - start)  # double what is held: a long value is re-read O(log n) times

    # -- the object ------------------------------------------------------------ #

    def members(self, streamed: frozenset[str] | set[str] = frozenset()) -> Iterator[tuple[str, Any]]:
        """``(key, value)`` for each member of the object, in file order; a key of ``streamed`` whose value is
        a list gives an iterator of the list's elements (read one by one: use it before the next member).
        The file must hold the object and nothing more."""
        ch = self._peek()
        if ch != "{":
            if ch in "[\"-0123456789tfn" and ch:
                raise StreamError("shape", "the document must be a JSON object", self.where())
            self._take("{", "'{'")
        self._pos += 1
        if self._peek() == "}":
            self._pos += 1
        else:
            while True:
                if self._peek() != '"':
                    self._take('"', "a key in double quotes")
                key = self.value(limit=4096)
                self._take(":", "':'")
                if key in streamed and self._peek() == "[":
                    elements = self._elements()
                    yield key, elements
                    for _ in elements:  # what the caller left unread
                        pass
                else:
                    yield key, self.value()
                ch = self._peek()
                if ch == "}":
                    self._pos += 1
                    break
                self._take(",", "',' or '}'")
        if self._peek():
            raise StreamError("json", "extra data after the document", self.where())

    def _elements(self) -> Iterator[Any]:
        self._pos += 1  # the '['
        if self._peek() == "]":
            self._pos += 1
            return
        while True:
            yield self.value()
            if self._peek() == "]":
                self._pos += 1
                return
            self._take(",", "',' or ']'")
