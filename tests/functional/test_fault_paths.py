"""The paths left after issue #11's listed cases: every write the app and the commands make, when it fails
(an injected OSError at the write call); save files the app reads that hold the wrong kind of value; odd
command lines. No traceback, one clear message in the UI language, nothing lost, nothing stored twice."""

import json
import random

import pytest
from textual.widgets import Input

from drill.app import DrillApp
from drill.cli import main
from drill.commands.mock import SETTINGS_KEY as MOCK_KEY
from drill.context import AppContext
from drill.screens.card import SEEN_KEY, SHOW_KEY
from engine.session import QUEUE_KEY
from engine.storage import Profile
from tests.functional.app_support import clock, sync, text_of  # noqa: F401 (fixtures)

pytestmark = pytest.mark.functional


def hand_edited(saves, **settings):
    """A profile whose state file holds ``settings`` as if edited by hand (or written by another version)."""
    with Profile.open(saves) as p:
        p.set_setting(SHOW_KEY, False)
    path = saves / "default" / "state.json"
    tables = json.loads(path.read_text())
    tables["settings"]["1"].update(settings)
    path.write_text(json.dumps(tables))
    return path


# --------------------------------------------------------------------------- settings of the wrong kind


@pytest.mark.parametrize("key, value", [(QUEUE_KEY, 5), (QUEUE_KEY, [[1]]), (SEEN_KEY, 5), (MOCK_KEY, 5),
                                        (MOCK_KEY, {"topics": 5}), ("new_per_day", "abc")])
@sync
async def test_the_app_opens_every_screen_with_a_setting_of_the_wrong_kind_and_home_names_it(tmp_path, clock, key,
                                                                                            value):
    path = hand_edited(tmp_path, **{key: value, SHOW_KEY: True})  # the card is shown: cards_seen is read
    with Profile.open(tmp_path) as p:
        app = DrillApp(AppContext(p, "en", clock, random.Random(7)), start="home")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            shown = text_of(app.screen, "#home-damaged")
            assert f"The setting {key} in {path} is not used" in shown and "The default is used" in shown
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert f"{path} 中的设置 {key} 未被采用" in text_of(app.screen, "#home-damaged")
            for key_, screen in (("p", "CardScreen"), ("m", "MockSetupScreen"), ("b", "BrowseScreen"),
                                 ("o", "SettingsScreen"), ("s", "StatsScreen")):
                await pilot.press(key_)
                await pilot.pause()
                assert type(app.screen).__name__ == screen
                await pilot.press("escape")
                await pilot.pause()
                if type(app.screen).__name__ == "PracticeScreen":  # the card closed: the problem
                    await pilot.press("escape")
                    await pilot.pause()


@pytest.mark.parametrize("command", [["due"], ["due", "--json"], ["plan"], ["stats", "--json"], ["export", "-"],
                                     ["mock", "--plan"], ["due", "--new-per-day", "4"]])
@pytest.mark.parametrize("lang, said", [("en", "is not used: "), ("zh", "未被采用：")])
def test_every_command_names_a_setting_of_the_wrong_kind_in_one_line_and_goes_on(tmp_path, capsys, command, lang,
                                                                                  said):
    path = hand_edited(tmp_path, **{QUEUE_KEY: 5, "lang": lang})
    assert main(["--saves", str(tmp_path), *command]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"drill: " in err and said in err and str(path) in err and "Traceback" not in err
