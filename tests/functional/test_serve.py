"""`drill serve`: the app in a real headless Chromium (tests/browser.py), and the server's own rules.

The browser test needs Debian's Chromium (`apt-get install chromium`; docs/testing.md): without it it skips and
says why.  The rest runs everywhere.
"""

import sys
import time
import urllib.error
import urllib.request

import pytest

from drill.commands.serve import app_command, is_loopback
from engine.storage import Profile
from tests import browser, cli

pytestmark = pytest.mark.functional


def reviews(saves) -> list:
    if not (saves / "default").exists():
        return []
    with Profile.open(saves, "default", read_only=True) as p:
        return list(p.reviews())


def wait_for_review(saves, timeout: float = 15.0) -> list:
    deadline = time.monotonic() + timeout
    while not (got := reviews(saves)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return got


def test_a_problem_answered_in_the_browser_is_graded_and_recorded(tmp_path):
    if why := browser.missing():
        pytest.skip(why)
    saves, port = tmp_path / "saves", browser.free_port()
    with browser.served(browser.drill_serve(saves, port), port) as url, browser.browser_page(url) as (page, screen):
        screen.wait_for(page, "Practise today")  # Home, drawn in the page
        page.locator(".xterm-helper-textarea").focus()  # (keys go to the terminal, as after a click on it)
        page.keyboard.press("p")
        screen.wait_for(page, "Enter: start drilling")  # a new template opens on its formula card
        page.keyboard.press("Enter")
        screen.wait_for(page, "/5")  # the session's progress: a problem is on screen
        page.wait_for_timeout(300)  # (the answer box's hint drawn)
        answer = "memory-bound" if "type one of" in screen.text() else "1"  # a choice, else a number
        page.keyboard.type(answer)
        page.keyboard.press("Enter")
        got = wait_for_review(saves)
    assert len(got) == 1, screen.text()[-800:]
    assert got[0].typed == answer and got[0].mode == "practice"
    assert got[0].verdict in ("correct", "close", "wrong", "convention")  # graded, not refused


def test_the_app_command_keeps_the_saves_profile_and_language(tmp_path):
    args = cli_args(saves=str(tmp_path / "s"), profile="work", lang="zh")
    command = app_command(args)
    assert command.startswith(sys.executable) and "-m drill" in command
    assert f"--saves {tmp_path / 's'}" in command and "--profile work" in command and "--lang zh" in command


def cli_args(**kw):
    import argparse

    return argparse.Namespace(**{"saves": None, "profile": None, "lang": None} | kw)


def test_only_loopback_counts_as_this_machine():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4") and not is_loopback("example.org")


def test_bad_options_are_refused_before_anything_listens(tmp_path):
    saves = str(tmp_path / "saves")
    r = cli.drill("--saves", saves, "serve", "--port", "70000")
    assert r.returncode == 2 and "--port" in r.stderr
    r = cli.drill("--saves", saves, "serve", "--token", "short")
    assert r.returncode == 2 and "8 characters" in r.stderr


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_an_exposed_server_says_so_and_the_token_guards_every_page(tmp_path):
    saves, port = tmp_path / "saves", browser.free_port()
    argv = browser.drill_serve(saves, port, "--host", "0.0.0.0", "--token", "s3cret-token")
    with browser.served(argv, port) as url:
        assert get(url + "/") == 403
        assert get(url + "/?token=wrong-token") == 403
        assert get(url + "/?token=s3cret-token") == 200
        assert get(url + "/ws") == 403
    r = cli.drill("--saves", str(saves), "serve", "--host", "203.0.113.1", "--port", str(port))
    assert r.returncode == 1 and "cannot serve on 203.0.113.1" in r.stderr  # not this machine's address
    assert "anyone who can reach port" in r.stderr
