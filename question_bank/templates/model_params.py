"""A model's parameter count as the topic modules state it: round Φ values, Φ in words, its given and world."""

from __future__ import annotations

from engine import formulas
from engine.units import best_unit, fmt_number

from .. import hardware, kit, models
from ..spec import World, given
from .chip_givens import an

# Round parameter counts an interviewer uses for "a Φ-parameter model" (billions).
ROUND_PHI_B = tuple(range(1, 31)) + (32, 34, 36, 40, 45, 50, 56, 60, 65, 70, 72, 80, 90, 100, 120, 130, 140, 150,
                                     175, 180, 200, 235, 250, 300, 340, 400, 480, 500, 540, 600, 671, 1000)


# --------------------------------------------------------------------------- #
# Helpers shared by the memory, communication and MFU templates


nominal_phi = kit.nominal_phi  # Φ as people say it (69B for 68.98B): one definition, in the kit


def phi_text(phi: float) -> str:
    """``69B``, ``6.7B``, ``406B``."""
    return f"{fmt_number(phi / 1e9)}B"


def model_phi(rng, pool=models.MODELS) -> tuple[str, float]:
    """A named model (its published Φ, rounded) or a round Φ: (name, Φ)."""
    i = rng.randrange(len(pool) + len(ROUND_PHI_B))
    if i < len(pool):
        return pool[i].name, nominal_phi(pool[i])
    phi = ROUND_PHI_B[i - len(pool)] * 1e9
    text = phi_text(phi)
    return f"{an(text)}-parameter model", phi


def model_world(name: str, phi: float, **facts) -> World:
    """The world of a problem on ``name`` (a catalogue model, or "a 30B-parameter model" of Φ = ``phi``)."""
    m = next((m for m in models.MODELS + models.MOE_MODELS if m.name == name), None)
    return World(model=m, phi=None if m else phi, **facts)


# A figure "could live on a real GPU" when it fits the largest memory in the catalogue (question_bank.realism).
LARGEST_GPU_BYTES = max(g.memory for g in hardware.GPUS)


def phi_given(phi: float):
    return given("phi", "Parameters Φ", "参数量 Φ", phi)


def unit_for(formula: str, **inputs) -> str:
    """The unit a person would answer in (GB, MB, ms, µs ...) for this formula's value."""
    f = formulas.get(formula)
    sym = best_unit(f.evaluate(**inputs), f.unit)[0]
    return "µs" if sym == "us" else sym


def cap(text: str) -> str:
    """Capitalised for the start of a sentence (model names keep their case)."""
    return text[:1].upper() + text[1:]


def zh_after(word: str, name: str) -> str:
    """``训练 Llama-2-7B`` but ``训练一个 30B 参数的模型`` (a space only before a Latin name)."""
    zh = zh_model(name)
    return word + ("" if zh.startswith("一") else " ") + zh


def zh_model(name: str) -> str:
    if not name.endswith("-parameter model"):
        return name
    return "一个 " + name.split(" ", 1)[1].replace("-parameter model", " 参数的模型")
