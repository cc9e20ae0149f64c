"""Sealed JSON: a save file (or a journal line) that carries a checksum of its own content, read strictly.

A sealed document is the compact JSON of a dict with one more key in front::

    {"checksum":"<32 hex digits>","meta":{...},"reviews":{...}}

The checksum is a BLAKE2b-128 of the same bytes without that key (``{"meta":...}``),
so it is checked without parsing and survives any number of reads.  Reading
(:func:`open_sealed`) verifies it and parses strictly: a key given twice at any
level is damage, not "the last one wins" (:func:`loads_strict`).

A document without the key is an older save (before checksums): it is read
(strictly all the same) and sealed the next time it is written.  A damaged key
(``"checksun"``) is a key no save file has, which the readers refuse.
"""

from __future__ import annotations

import json
import re
from typing import Any

try:  # hashlib's own BLAKE2b, without importing hashlib: it loads OpenSSL (~10M instructions at start-up)
    from _blake2 import blake2b
except ImportError:  # an interpreter without the module: hashlib finds one
    from hashlib import blake2b

KEY = b'{"checksum":"'
_SUM = re.compile(rb'\{"checksum":"([0-9a-f]{32})"([,}])')


class Broken(ValueError):
    """Why bytes are not a whole sealed (or older) document: the text says what is wrong, in English; ``zh``
    in Chinese when given (``said``: both, as an engine.messages Twin)."""

    def __init__(self, en: str, zh: str = ""):
        super().__init__(en)
        self.zh = zh

    @property
    def said(self):
        from ..messages import Twin

        return Twin(str(self), self.zh) if self.zh else str(self)


def checksum(body: bytes) -> str:
    return blake2b(body, digest_size=16).hexdigest()


def seal(body: bytes) -> bytes:
    """``body`` (the compact JSON of a dict, ``{...}``) with its checksum in front."""
    if not body.startswith(b"{"):
        raise ValueError("only a JSON object can be sealed")
    head = KEY + checksum(body).encode() + b'"'
    return head + (b"}" if body == b"{}" else b"," + body[1:])


def unseal(raw: bytes) -> tuple[bytes, bool]:
    """The body of ``raw`` and whether it carried a checksum (True: verified); :class:`Broken` if it does not match.

    Bytes without the checksum key are returned as they are (an older save)."""
    if not raw.startswith(KEY):
        return raw, False
    m = _SUM.match(raw)
    if m is None:
        raise Broken("its checksum is damaged", "其校验和已损坏")
    if m.group(2) == b"}":
        if len(raw) != m.end():
            raise Broken("it has data after its end", "其结尾之后还有数据")
        body = b"{}"
    else:
        body = b"{" + raw[m.end():]
    if checksum(body) != m.group(1).decode():
        raise Broken("its checksum does not match its content (it was changed or damaged after it was written)",
                     "其校验和与内容不符（写入后被改动或损坏）")
    return body, True


def no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise Broken(f"the key {key!r} appears twice", f"键“{key}”出现了两次")
        out[key] = value
    return out


def loads_strict(body: bytes) -> Any:
    """JSON from UTF-8 ``body``, refusing a key given twice (``Broken``); ValueError / RecursionError as json."""
    return json.loads(body.decode("utf-8"), object_pairs_hook=no_duplicates)


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def open_sealed(raw: bytes) -> tuple[Any, bool]:
    """The document in ``raw`` (sealed or older) and whether it was sealed; ``Broken`` names the problem."""
    body, sealed = unseal(raw)
    try:
        return loads_strict(body), sealed
    except Broken:
        raise
    except UnicodeDecodeError as e:
        raise Broken(f"not valid JSON ({e})") from None
    except ValueError as e:
        raise Broken(f"not valid JSON ({e})", f"不是有效的 JSON（{e}）") from None
    except RecursionError:
        raise Broken("it is nested too deeply to be a save file", "嵌套太深，不可能是存档文件") from None
