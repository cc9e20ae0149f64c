"""Merging replicas (engine.storage.merging): any machines' histories, merged in any order and any number of
times, give the same reviews and the same item states; nothing is dropped; a conflict is kept and reported."""

import copy
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from drill.core.sync import checked_other, context_of_settings
from engine.review import legacy_replica
from engine.schedule import fsrs_bridge
from engine.schedule.fsrs_bridge import Scheduler
from engine.session import review_row
from engine.sm2 import ItemState
from engine.storage.merging import content, merge, origin_of
from engine.storage.transfer import exported
from tests import problems

START = datetime(2026, 11, 1, 9, tzinfo=UTC)


def replica_doc(name: str, scheduler: str = Scheduler.SM2) -> dict:
    return {"format": "infra-drill-profile", "schema": 1, "profile": "default", "replica": name,
            "settings": {"new_per_day": 5, "scheduler": scheduler}, "states": {}, "reviews": [], "mocks": []}


def record(doc: dict, item: str, quality: int, when: datetime) -> None:
    """An answer recorded on one machine, by the record path's row (``review_row``) from the item's state (and
    under FSRS its memory, replayed from the item's rows by day, as drill.core.sessions.memory_source does)."""
    st_now = doc["states"].get(item)
    scheduler = doc["settings"]["scheduler"]
    memory = fsrs_bridge.replay(sorted((date.fromisoformat(x["date"]), x["quality"]) for x in doc["reviews"]
                                       if x["item"] == item and x["scheduled"])) if scheduler == Scheduler.FSRS else None
    r = review_row(item=item, topic="t", seed=1, quality=quality, verdict="correct" if quality >= 3 else "wrong",
                   when=when, today=when.date(), state=ItemState.from_dict(st_now) if st_now else None,
                   schedule=True, scheduler=scheduler, memory=memory).to_dict()
    r["id"] = max((x["id"] for x in doc["reviews"]), default=0) + 1
    doc["reviews"].append(dict(r))
    doc["states"][item] = r["after"]


def pull(docs: list[dict], i: int, j: int, old: dict | None = None) -> dict:
    """Machine ``i`` merges machine ``j``'s file (``j`` past the machines: the export ``old``, from before replica
    ids, read as drill sync reads a file); returns the report."""
    other = (docs[j]["replica"], docs[j]) if j < len(docs) else checked_other(old)
    merged, report = merge(docs[i], docs[i]["replica"], [other], context_of_settings)
    docs[i] = {**merged, "replica": docs[i]["replica"]}
    return report


def old_history(answers, scheduler: str = Scheduler.SM2) -> dict:
    """An export of a history recorded before replica ids (as drill 0.1.0 wrote it): no replica, no setting
    change times, rows with their plain ids and no origin."""
    doc = {k: v for k, v in replica_doc("", scheduler).items() if k != "replica"}
    for k, (item, quality) in enumerate(answers):
        record(doc, item, quality, START - timedelta(days=len(answers) - k))
    return doc


def upgraded(old: dict, name: str) -> dict:
    """The save of that history opened by this drill: a new replica id of its own, and its rows exported as the
    older export names them (the manifest's legacy id and last id: Profile.export)."""
    rows = old["reviews"]
    legacy = (legacy_replica(rows[0]), rows[-1]["id"]) if rows else None
    return {**copy.deepcopy(old), "replica": name, "reviews": [exported(dict(r), legacy) for r in rows]}


def reviews_of(doc: dict) -> set:
    return {(origin_of(r, doc["replica"]), content(r)) for r in doc["reviews"]}


OP = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 2), st.sampled_from("xyz"), st.integers(0, 5)),
    st.tuples(st.just("pull"), st.integers(0, 2), st.integers(0, 3)),  # (3: the export from before replica ids)
    st.tuples(st.just("set"), st.integers(0, 2), st.integers(0, 9)))
SCHEDULERS = st.sampled_from([Scheduler.SM2, Scheduler.SM2, Scheduler.FSRS])
# a history from before replica ids: its answers, and whether a second machine holds a copy of that save too
OLD = st.tuples(st.lists(st.tuples(st.sampled_from("xyz"), st.integers(0, 5)), max_size=3), st.booleans())


@hsettings(max_examples=problems.examples(40))
@given(n=st.integers(2, 3), ops=st.lists(OP, max_size=14), final=st.permutations(range(3)), scheduler=SCHEDULERS,
       old=OLD)
def test_any_histories_merged_in_any_order_any_number_of_times_agree(n, ops, final, scheduler, old):
    histories_agree(n, ops, final, scheduler, old)


@pytest.mark.deep
@hsettings(max_examples=problems.examples(60))
@given(n=st.integers(2, 3), ops=st.lists(OP, max_size=60), final=st.permutations(range(3)), scheduler=SCHEDULERS,
       old=OLD)
def test_long_histories_merged_in_any_order_agree(n, ops, final, scheduler, old):
    histories_agree(n, ops, final, scheduler, old)


def histories_agree(n, ops, final, scheduler, old=((), False)):
    """Machines answering, changing a setting and merging one another in the order ``ops`` draws, then each
    merging all the others twice in the order ``final`` draws: the same reviews (each once, all of them), the
    same item states, the same settings (the latest change) everywhere, and a further merge changes nothing.
    Machine 0 (and machine 1 too when ``old`` says so) began as a save from before replica ids, whose older
    export is merged too, as often and in whatever order the ops draw."""
    before_ids = old_history(old[0], scheduler)
    docs = [upgraded(before_ids, "r0")] + [upgraded(before_ids, f"r{k}") if k == 1 and old[1]
                                           else replica_doc(f"r{k}", scheduler) for k in range(1, n)]
    made = len(before_ids["reviews"])
    for k, op in enumerate(ops):  # answers and merges interleaved: a replayed item answered again, and so on
        when = START + timedelta(hours=7 * k)
        if op[0] == "record":
            record(docs[op[1] % n], op[2], op[3], when)
            made += 1
        elif op[0] == "set":  # a setting changed on one machine, stamped with its time
            d = docs[op[1] % n]
            d["settings"] = {**d["settings"], "new_per_day": op[2]}
            d["settings_changed"] = {**d.get("settings_changed", {}), "new_per_day": when.strftime("%Y-%m-%dT%H:%M:%SZ")}
        else:
            pull(docs, op[1] % n, op[2] % (n + 1), before_ids)
    order = [i for i in final if i < n]
    for _ in range(2):  # everyone merges everyone and the older export, twice, in a drawn order
        for i in order:
            for j in [n, *reversed(order)]:
                if i != j:
                    pull(docs, i, j, before_ids)
    first = docs[0]
    sets = [op for op in ops if op[0] == "set" and op[1] % n < n]
    if sets:  # the latest change wins everywhere
        assert first["settings"]["new_per_day"] == sets[-1][2]
    for d in docs[1:]:
        assert reviews_of(d) == reviews_of(first)
        assert d["states"] == first["states"]
        assert d["settings"] == first["settings"] and d.get("settings_changed") == first.get("settings_changed")
    assert len(first["reviews"]) == len(reviews_of(first)) == made  # complete, and each review once
    for d in docs:
        assert [r["id"] for r in d["reviews"]] == list(range(1, made + 1))
    before = [dict(d) for d in docs]
    assert not pull(docs, 0, 1).changed and docs[0] == before[0]  # idempotent: nothing left to merge


def test_a_merged_item_is_replayed_in_time_order_and_own_rows_are_never_rewritten():
    a, b = replica_doc("a"), replica_doc("b")
    record(a, "x", 5, START)
    record(b, "x", 1, START + timedelta(days=1))  # b met x later and failed it
    record(a, "x", 5, START + timedelta(days=2))
    own = [dict(r) for r in a["reviews"]]
    docs = [a, b]
    report = pull(docs, 0, 1)
    assert report.added == 1 and report.replayed == ("x",)
    assert docs[0]["reviews"][:2] == own  # appended in arrival order, the stored rows as they were
    assert docs[0]["reviews"][2]["origin"] == {"replica": "b", "id": 1}
    # the replay: 5 on day 0, 1 on day 1 (a lapse: SM-2 restarts), 5 on day 2
    from engine.sm2 import review

    s = review(ItemState(), 5, START.date())
    s = review(s, 1, date(2026, 11, 2))
    s = review(s, 5, date(2026, 11, 3))
    assert docs[0]["states"]["x"] == s.to_dict()
    pull(docs, 1, 0)
    assert docs[1]["states"] == docs[0]["states"]


def test_a_review_recorded_twice_with_different_content_is_kept_and_reported():
    a, b = replica_doc("a"), replica_doc("b")
    record(a, "x", 4, START)
    b["reviews"].append({**a["reviews"][0], "typed": "other", "origin": {"replica": "a", "id": 1}, "id": 1})
    docs = [a, b]
    report = pull(docs, 0, 1)
    assert report.conflicts == (("a", 1),) and report.added == 1
    assert {r["typed"] for r in docs[0]["reviews"]} == {"", "other"}


def test_settings_take_the_side_off_its_default_and_agree_on_a_conflict():
    a, b = replica_doc("a"), replica_doc("b")
    a["settings"] = {"new_per_day": 8, "interview": "2027-01-10"}
    b["settings"] = {"new_per_day": 3, "reviews_per_day": 40}
    docs = [a, b]
    report = pull(docs, 0, 1)
    pull(docs, 1, 0)
    assert docs[0]["settings"] == docs[1]["settings"] == {"new_per_day": 8, "interview": "2027-01-10",
                                                          "reviews_per_day": 40}
    assert report.settings == ("new_per_day",)


def test_each_setting_takes_its_latest_change():
    a, b = replica_doc("a"), replica_doc("b")
    a["settings"] = {"new_per_day": 8, "reviews_per_day": 40}
    a["settings_changed"] = {"new_per_day": "2026-11-02T10:00:00Z", "reviews_per_day": "2026-11-05T10:00:00Z"}
    b["settings"] = {"new_per_day": 3, "reviews_per_day": 90}
    b["settings_changed"] = {"new_per_day": "2026-11-03T10:00:00Z"}  # (reviews_per_day: set before times were kept)
    docs = [a, b]
    report = pull(docs, 0, 1)
    pull(docs, 1, 0)
    for d in docs:
        assert {k: d["settings"][k] for k in ("new_per_day", "reviews_per_day")} == {"new_per_day": 3,
                                                                                     "reviews_per_day": 40}
        assert d["settings_changed"] == {"new_per_day": "2026-11-03T10:00:00Z",
                                         "reviews_per_day": "2026-11-05T10:00:00Z"}
    assert report.settings == ()
