"""Save files under real processes: kill -9 mid-stream loses no acknowledged review; one process per profile."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.sm2 import ItemState
from engine.storage import Profile, ProfileLocked
from tests import cli

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.functional

WRITER = r"""
import random, sys
from datetime import date, datetime, timezone
from pathlib import Path
from engine import storage
from engine.session import review_row

storage.layout.SEGMENT_ROWS = 5  # many segment files: roll-overs and deletions happen under the kill too
rng = random.Random(int(sys.argv[2]))


def say(line):  # one whole line per write: a kill can cut only the last one, and then it has no newline
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


p = storage.Profile.open(Path(sys.argv[1]), wait=10)
print("ready", flush=True)
day, when = date(2026, 1, 1), datetime(2026, 1, 1, 12, tzinfo=timezone.utc)
while True:
    if p.last_review() is not None and rng.random() < 0.2:
        say(f"undoing {p.last_review().id}")  # if killed now, that row may or may not be gone
        say(f"U {p.undo_last().id}")
    else:
        item, q, sched = f"i{rng.randrange(4)}", rng.randrange(6), rng.random() < 0.8
        row = review_row(item=item, topic="t", seed=1, quality=q, verdict="wrong", when=when, today=day,
                         state=p.state(item), schedule=sched, mode="practice" if sched else "redrill")
        say(f"R {p.record(row).id}")
"""

HOLDER = r"""
import sys
from pathlib import Path
from engine.storage import Profile
with Profile.open(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    sys.stdin.read()
"""


def spawn(code, *args, **kw):
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True, **kw)


def replay(rows):
    states = {}
    for r in rows:
        if r.scheduled:
            states[r.item] = ItemState.from_dict(r.after)
    return states


def test_kill_9_at_random_moments_loses_no_acknowledged_review(tmp_path):
    rng = random.Random()
    kept: set[int] = set()  # every id acknowledged as recorded and not acknowledged as undone
    undone: set[int] = set()
    for round_ in range(6):
        w = spawn(WRITER, tmp_path, rng.randrange(10**6))
        assert w.stdout.readline().strip() == "ready"
        first = ""  # up to the first acknowledgement ("undoing N" is not one): the kill comes after some progress
        while True:
            line = w.stdout.readline()
            first += line
            if not line.startswith("undoing"):  # an acknowledgement, or "" if the writer ended
                break
        time.sleep(rng.uniform(0.02, 0.4))
        w.send_signal(signal.SIGKILL)
        w.wait(timeout=30)
        # read the rest through the same text stream: readline() above may already hold later lines in its buffer
        # (communicate() with a timeout reads the raw pipe, so an "undoing N" buffered there was lost, and its
        # finished undo looked like an acknowledged review lost)
        out = first + w.stdout.read()
        w.stdout.close()
        acked, in_flight_undo = 0, None
        for line in out.split("\n")[:-1]:  # a last line without its newline was cut by the kill
            op, rid = line.split()
            in_flight_undo = int(rid) if op == "undoing" else None
            if op == "R":
                kept.add(int(rid))
            elif op == "U":
                kept.discard(int(rid))
                undone.add(int(rid))
            acked += op != "undoing"
        assert acked > 0, "the writer was killed before it acknowledged anything"
        for f in (tmp_path / "default").rglob("*.json*"):
            if not f.name.startswith("."):  # a hidden temporary may be half-written: it is never read
                json.loads(f.read_bytes())  # every save file and every backup is whole
        with Profile.open(tmp_path) as p:
            rows = list(p.reviews())
            ids = {r.id for r in rows}
            if in_flight_undo is not None and in_flight_undo not in ids:  # the undo under way when the kill came did finish
                kept.discard(in_flight_undo)
                undone.add(in_flight_undo)
            assert kept <= ids, f"round {round_}: acknowledged reviews lost: {sorted(kept - ids)}"
            assert not ids & undone, f"round {round_}: acknowledged undo came back: {sorted(ids & undone)}"
            assert len(ids - kept) <= 1, (sorted(ids - kept), out.splitlines()[-6:])  # at most the one record in flight
            assert p.states() == replay(rows)  # the schedule agrees with the log
            kept = ids


def test_two_processes_never_share_a_profile(tmp_path):
    holder = spawn(HOLDER, tmp_path, "ann", stdin=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ProfileLocked) as e:
            Profile.open(tmp_path, "ann")
        assert e.value.pid == holder.pid
        assert str(e.value).startswith(f"profile 'ann' is in use by process {holder.pid}")

        # a scripted writer waits briefly, then gives up naming the profile and the process
        env = {**os.environ, "DRILL_LOCK_WAIT": "0.3"}
        r = subprocess.run([sys.executable, "-m", "drill", "--saves", str(tmp_path), "--profile", "ann", "due",
                            "--new-per-day", "4"],
                           cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
        assert r.returncode == 1
        assert f"profile 'ann' is in use by process {holder.pid} (waited 0.3 s)" in r.stderr

        # the app (interactive) does not wait: it exits at once with the same message
        env["DRILL_LOCK_WAIT"] = "30"
        start = time.monotonic()
        r = cli.in_terminal([sys.executable, "-m", "drill", "--saves", str(tmp_path), "--profile", "ann", "practice"],
                            cwd=ROOT, env=env, timeout=60)
        assert r.returncode == 1 and time.monotonic() - start < 20
        assert f"profile 'ann' is in use by process {holder.pid}" in r.stderr

        # a reader needs no lock: it works while the profile is held
        r = subprocess.run([sys.executable, "-m", "drill", "--saves", str(tmp_path), "--profile", "ann", "due",
                            "--json"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
        assert r.returncode == 0, r.stderr

        # a scripted writer succeeds if the profile is released while it waits
        waiting = subprocess.Popen([sys.executable, "-m", "drill", "--saves", str(tmp_path), "--profile", "ann",
                                    "due", "--new-per-day", "4", "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE,
                                   text=True, env=env)
        time.sleep(0.5)
        assert waiting.poll() is None
        holder.stdin.close()
        holder.wait(timeout=30)
        out, err = waiting.communicate(timeout=60)
        assert waiting.returncode == 0, err
        assert json.loads(out)["profile"] == "ann"
    finally:
        holder.kill()
        holder.wait()
