"""A profile or saves folder that does not exist: the commands that read what a profile holds (stats, due,
doctor, export, plan) say so and make nothing, instead of reading a typo as a learner with no reviews; the
default profile on a fresh install still reads as empty; the commands that read only settings work without one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import cli

pytestmark = pytest.mark.functional
T = "roofline.ridge_point"
READERS = [("stats",), ("stats", "--json"), ("due",), ("due", "--json"), ("due", "--new-per-day", "5"), ("doctor",),
           ("doctor", "--repair"), ("doctor", "--json"), ("export", "-"), ("export", "{saves}/out.json"), ("plan",),
           ("plan", "--new-per-day", "5"), ("plan", "--interview", "2027-01-01")]


def tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def saves(tmp_path) -> Path:
    """A saves folder holding the default profile with one review."""
    r = cli.drill("--saves", str(tmp_path), "check", T, "--seed", "1", "295", "--record")
    assert r.returncode == 0, r.stderr
    return tmp_path


@pytest.mark.parametrize("args", READERS)
def test_a_profile_that_does_not_exist_is_named_with_the_existing_ones(saves, args):
    before = tree(saves)
    r = cli.drill("--saves", str(saves), "--profile", "nosuch", *(a.format(saves=saves) for a in args))
    assert r.returncode == 1 and r.stdout == "", r.stdout
    assert r.stderr.startswith("drill: profile 'nosuch' does not exist; existing: default.")
    assert len(r.stderr.splitlines()) == 1 and "drill --profile nosuch practice" in r.stderr
    assert tree(saves) == before  # nothing made: no folder, lock, snapshot or export


def test_it_is_said_in_chinese(saves):
    r = cli.drill("--saves", str(saves), "--profile", "tpyo", "stats", "--lang", "zh")
    assert r.returncode == 1
    assert r.stderr.startswith("drill: 档案“tpyo”不存在；现有档案：default。新档案会在其中记录第一个答案时创建")


def test_every_existing_profile_is_named(saves):
    assert cli.drill("--saves", str(saves), "--profile", "ana", "check", T, "--seed", "1", "1", "--record").returncode == 0
    r = cli.drill("--saves", str(saves), "--profile", "bo", "due")
    assert "existing: ana, default." in r.stderr


@pytest.mark.parametrize("args", READERS)
def test_a_saves_folder_that_does_not_exist_is_named(tmp_path, args):
    wrong = tmp_path / "wrong"
    r = cli.drill("--saves", str(wrong), *(a.format(saves=tmp_path) for a in args))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == f"drill: the saves folder {wrong} does not exist (chosen with --saves): nothing was read. " \
                       "Check the path; a new folder is made by the first answer recorded in it\n"
    assert tree(tmp_path) == []


def test_a_saves_folder_from_the_environment_is_named_so(tmp_path):
    wrong = tmp_path / "wrong"
    with cli.environ(DRILL_SAVES=str(wrong)):
        r = cli.drill("doctor", "--lang", "zh")
    assert r.returncode == 1 and r.stderr == (f"drill: 存档文件夹 {wrong} 不存在（由 $DRILL_SAVES 指定）：未读取任何内容。"
                                              "请检查路径；新文件夹会在其中记录第一个答案时创建\n")
    assert not wrong.exists()


def test_the_default_profile_of_a_fresh_install_reads_as_empty(tmp_path, monkeypatch):
    fresh = tmp_path / "user-data" / "infra-drill"  # the user data folder, not made yet
    monkeypatch.setattr("drill.core.paths.saves_source", lambda cli_value: (fresh, "user"))
    stats = cli.drill("stats", "--json")
    assert stats.returncode == 0 and json.loads(stats.stdout)["reviews"] == 0
    assert cli.drill("due").returncode == 0
    assert cli.drill("doctor").returncode == 0
    assert cli.drill("export", "-").returncode == 0
    assert cli.drill("plan").returncode == 0
    assert not fresh.exists()  # read as empty, and nothing made by reading


def test_the_default_profile_of_an_empty_saves_folder_reads_as_empty(tmp_path):
    r = cli.drill("--saves", str(tmp_path), "stats", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["reviews"] == 0


@pytest.mark.parametrize("args", [("ask", T, "--seed", "1"), ("check", T, "--seed", "1", "295"),
                                  ("check", T, "--seed", "1", "295", "--json"), ("templates",), ("card", T),
                                  ("calc", "ridge_point", "peak_flops=989TFLOPS", "bandwidth=3.35TB/s")])
def test_commands_that_read_only_settings_work_without_a_profile(tmp_path, args):
    for where in ("--profile", "nosuch"), ("--saves", str(tmp_path / "wrong")):
        r = cli.drill("--saves", str(tmp_path), *where, *args)
        assert r.returncode == 0 and r.stdout and r.stderr == "", r.stderr
    assert tree(tmp_path) == []
