"""An input whose default names another input (``sender_copies`` = ``replicas``), as drill calc and the grader
read it: omitted, it takes that input's value; the convention row it stands for is recognised with that value."""

import pytest

from engine import formulas
from engine.formulas import conventions

SYNC = {"weight_bytes": 1e12, "gpus_per_replica": 16, "replicas": 8, "n_senders": 64, "link_bandwidth": 50e9}


def test_an_omitted_default_takes_the_named_inputs_value():
    f = formulas.get("weight_sync_time")
    assert f.with_defaults(SYNC)["sender_copies"] == 8
    # 8 copies from 64 senders (2.5 s) outlast each GPU's shard (1.25 s); one broadcast copy does not
    assert f.evaluate(**SYNC) == pytest.approx(2.5)
    assert f.evaluate(**SYNC, sender_copies=1) == pytest.approx(1.25)


def test_drill_calc_reads_the_omitted_input_and_says_where_it_came_from():
    f = formulas.get("weight_sync_time")
    values, notes = f.read_inputs({"weight_bytes": "1TB", "gpus_per_replica": "16", "replicas": "8",
                                   "n_senders": "64", "link_bandwidth": "400Gb/s"})
    assert values["sender_copies"] == 8
    assert any("replicas = 8" in n.text() for n in notes)


def test_the_other_row_is_recognised_with_the_problems_own_replicas():
    f = formulas.get("weight_sync_time")
    alts = conventions.alternatives(f, SYNC)
    assert [(a.row.key, a.own.key if a.own else None) for a in alts] == [("1", "replicas")]
    assert alts[0].value == pytest.approx(1.25)
    broadcast = conventions.alternatives(f, {**SYNC, "sender_copies": 1})
    assert [a.row.key for a in broadcast] == ["replicas"] and broadcast[0].value == pytest.approx(2.5)
