"""The table of recognised conventions (engine/formulas/conventions.py): one row per (input, value)."""

from __future__ import annotations

from engine import sources
from engine.formulas import CATALOGUE, conventions, get, inputs
from engine.formulas.conventions import CONVENTIONS


def test_every_group_has_one_default_and_distinct_values():
    for group in {c.group for c in CONVENTIONS}:
        rows = conventions.rows(group)
        assert sum(c.default for c in rows) == 1, group
        assert len({c.key for c in rows}) == len(rows), group
        # a number two rows share (part 4's 12 B FP8 recipe and part 3's 12 B QLoRA count) is told apart by a key
        # that names the recipe, never by the bare number
        bare = [c for c in rows if not any(o.value == c.value and o.key != c.key for o in rows) or c.key == f"{c.value:g}"]
        assert len({c.value for c in bare}) == len(bare), group
        assert len({c.input for c in rows}) == 1, group


def test_every_row_is_sourced_and_worded_in_both_languages():
    for c in CONVENTIONS:
        assert sources.keys(c.source) and all(k in sources.SOURCES for k in sources.keys(c.source)), c
        assert c.source_in("en") and c.source_in("zh"), c
        for en, zh in ((c.label, c.label_zh), (c.counts, c.counts_zh), (c.who, c.who_zh)):
            assert bool(en) == bool(zh), c
        assert c.label and c.counts, c
        assert not c.when or c.when in conventions.WHEN, c


def test_the_inputs_are_built_from_the_table():
    """The figures live once: an input's choices and default are its rows."""
    seen = set()
    for f in CATALOGUE:
        for i, rows in conventions.of_formula(f):
            seen.add(i.convention)
            own = conventions.default(i.convention)
            if own.value_from:  # the default is another input's value (sender_copies = replicas)
                assert i.default_from == own.value_from and i.default is None
            else:
                assert i.default_value == own.value
            assert all(r.input == i.name for r in rows), (f.name, i.name)
            if i.choices:
                assert [(ch.key, ch.value, ch.words, ch.words_zh) for ch in i.choices] == \
                    [(r.key, r.value, r.words.en, r.words.zh) for r in rows]
    assert seen == {c.group for c in CONVENTIONS}  # every group is bound by some formula
    # every quiet convention input is a row group: no convention is hidden outside the table
    assert all(i.convention for f in CATALOGUE for i in f.inputs if i.quiet)


def test_the_spec_rows():
    """The spec's part 3 "Conventions are inputs": each value in use, and the formulas its input binds."""
    def keys(group):
        return [c.key for c in conventions.rows(group)]

    assert keys("train_bytes") == ["10", "12", "16", "18", "20", "12_fp8", "10_adam8bit", "12_one_state"]
    assert keys("zero_recipe") == ["16", "18", "20", "10_adam8bit", "12_one_state"]  # 12_fp8's split: not published
    assert [c.value for c in conventions.rows("overhead")] == [0, 0.25]
    assert keys("flops_per_token") == ["6", "8"] and keys("ring_factor") == ["exact", "approx"]
    assert [c.value for c in conventions.rows("tokens_per_param")] == [20, 21]
    # recognised only: 10 (JAX scaling book) and 12 (QLoRA) are not a learner's own setting
    assert [c.key for c in conventions.rows("train_bytes") if c.selectable] == ["16", "18", "20", "12_fp8", "10_adam8bit", "12_one_state"]
    # which formulas a row applies to is derived from the formula's inputs
    bound = {f.name: {i.convention for i, _ in conventions.of_formula(f)} for f in CATALOGUE}
    assert bound["train_static_bytes"] == {"train_bytes", "overhead"}
    assert bound["weights_bytes"] == {"overhead"}  # its bytes_per_param is the given precision, not a convention
    # a checkpoint's 14 B per parameter, 12 recognised (fp32 parameters, no bf16 copy), none selectable
    assert bound["checkpoint_bytes"] == {"checkpoint_bytes"}
    assert [(c.key, c.selectable) for c in conventions.rows("checkpoint_bytes")] == [("14", False), ("12", False)]
    assert bound["grpo_static_bytes"] == {"train_bytes"}  # a trained model's bytes
    assert bound["ppo_static_bytes"] == {"train_bytes", "critic_size"}  # and PPO's critic: the reward model's size
    assert bound["zero2_parallel_bytes"] == {"zero_recipe"}
    assert bound["allreduce_time"] == {"ring_factor", "ring_directions"}
    assert bound["bisection_bandwidth"] == {"bisection_directions"}
    assert bound["mfu"] == set()  # MFU counts 6Φ by definition


def test_alternatives_evaluate_the_formula_with_each_other_row():
    f = get("train_static_bytes")
    alts = {(a.row.input, a.row.key): a.value for a in conventions.alternatives(f, {"phi": 20e9})}
    assert alts == {("bytes_per_param", "10"): 200e9, ("bytes_per_param", "12"): 240e9,
                    ("bytes_per_param", "18"): 360e9, ("bytes_per_param", "20"): 400e9,
                    ("bytes_per_param", "12_fp8"): 240e9, ("bytes_per_param", "10_adam8bit"): 200e9,
                    ("bytes_per_param", "12_one_state"): 240e9, ("overhead", "0.25"): 400e9}
    # under another own convention the default row is an alternative
    alts = {a.row.key: a.value for a in conventions.alternatives(f, {"phi": 20e9, "bytes_per_param": 18})}
    assert alts["16"] == 320e9 and "18" not in alts
    # conditions: the ring's (n−1)/n is dropped by convention from n = 8; 8Φ only where no MFU is applied
    ring = get("allreduce_bytes")
    assert not conventions.alternatives(ring, {"m": 1e9, "n": 4})
    assert [a.row.key for a in conventions.alternatives(ring, {"m": 1e9, "n": 8})] == ["approx"]
    assert [a.row.key for a in conventions.alternatives(get("train_flops"), {"phi": 1e9, "tokens": 1e12})] == ["8"]
    train_time = {"phi": 1e9, "tokens": 1e12, "n_gpus": 8, "peak_flops": 1e15, "mfu": 0.4}
    assert not conventions.alternatives(get("train_time"), train_time)
    # both directions of a link only on a torus (the problem's world is a TPU)
    t = {"m": 1e9, "n": 4, "alpha": 0, "beta": 1e11}
    assert not conventions.alternatives(get("allreduce_time"), t)
    assert inputs.RING_DIRECTIONS.convention == "ring_directions"
