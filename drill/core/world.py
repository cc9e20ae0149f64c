"""The world a problem is drawn in: one source for every face.

Hardware, model and conventions chosen in Settings (the profile's settings ``hardware``, ``model`` and
``conventions``) apply to practice, the mock, ``drill ask``, ``drill check``, ``drill calc`` and ``drill mock
--plan`` alike; a flag on the command line (``--hardware``, ``--model``, ``--convention``) wins over Settings.
:class:`ChosenWorld` is what a face used and where each part came from, said in one line (:meth:`line`) and
as a JSON field (:meth:`to_dict`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.langs import EN
from engine.messages import pick
from engine.records import NamedTuple

FLAG, SETTINGS = "flag", "settings"  # where a part of the world came from (a JSON value of ChosenWorld.sources)


class ChosenWorld(NamedTuple):
    """The learner's world: an accelerator id, a model id (None: the catalogue's mix) and the conventions off
    their default, with where each came from (``flag`` or ``settings``; a part left at its default is not
    listed)."""

    hardware: str | None = None
    model: str | None = None
    conventions: Mapping[str, str] = {}
    sources: Mapping[str, str] = {}

    def line(self, lang: str = EN) -> str:
        """``Drawn in: hardware h100_sxm (Settings) · conventions bytes per parameter 18 (--convention)``; the
        defaults when nothing was chosen."""
        from engine.convention_set import described

        def whence(part: str, flag: str) -> str:
            src = self.sources.get(part)
            return "" if src is None else pick(lang, f" ({flag})" if src == FLAG else " (Settings)",
                                               f"（{flag}）" if src == FLAG else "（设置）")

        parts = []
        if self.hardware:
            parts.append(pick(lang, "hardware ", "硬件 ") + self.hardware + whence("hardware", "--hardware"))
        if self.model:
            parts.append(pick(lang, "model ", "模型 ") + self.model + whence("model", "--model"))
        if self.conventions:
            parts.append(pick(lang, "conventions ", "约定 ") + described(self.conventions, lang)
                         + whence("conventions", "--convention"))
        if not parts:
            return pick(lang, "Drawn in: the catalogue's mix, default conventions", "出题范围：目录中的组合，默认约定")
        return pick(lang, "Drawn in: ", "出题范围：") + " · ".join(parts)

    @property
    def chosen(self) -> bool:
        """Whether anything is off the catalogue's mix and the default conventions (the line says it only then)."""
        return bool(self.hardware or self.model or self.conventions)

    def to_dict(self) -> dict[str, Any]:
        return {"hardware": self.hardware, "model": self.model, "conventions": dict(self.conventions),
                "sources": dict(self.sources)}


def chosen_world(settings: Mapping[str, Any], *, hardware: str | None = None, model: str | None = None,
                 conventions: list[str] | tuple[str, ...] = (), known=None) -> ChosenWorld:
    """The world from the profile's ``settings`` with the flags over it: ``hardware``/``model`` (ids, checked by
    the caller) and ``conventions`` (the ``--convention key=value`` texts: a bad one raises
    :class:`engine.convention_set.ConventionError`).  ``known(part, id)`` says whether a saved id is still in the
    catalogue (a removed user file: not used)."""
    from engine import convention_set

    sources: dict[str, str] = {}
    if hardware is not None:
        sources["hardware"] = FLAG
    else:
        saved = settings.get("hardware")
        if isinstance(saved, str) and (known is None or known("hardware", saved)):
            hardware, sources["hardware"] = saved, SETTINGS
    if model is not None:
        sources["model"] = FLAG
    else:
        saved = settings.get("model")
        if isinstance(saved, str) and (known is None or known("model", saved)):
            model, sources["model"] = saved, SETTINGS
    saved_conv = settings.get("conventions")
    base = convention_set.canonical(saved_conv) if convention_set.problem(saved_conv) is None else {}
    chosen = convention_set.read(list(conventions), base)
    if conventions:
        sources["conventions"] = FLAG
    elif chosen:
        sources["conventions"] = SETTINGS
    return ChosenWorld(hardware, model, chosen, sources)
