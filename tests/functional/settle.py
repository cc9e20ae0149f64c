"""The pilot tests wait for the app to settle, not for the CPU to look idle.

Textual's ``Pilot`` waits after each key (twice: before and after the animations) and in ``pause()`` until
a 20 ms window passes with the process nearly idle (``textual._wait``).  That is at least 20-40 ms of
sleep per key even when the app handled it in a millisecond.  In one process the functional suite made
2,875 such waits, 131 s of its 189 s (the app's work during them included); waiting as below, the
practice and mock tests ran in 17 s instead of 44 s.

Here, with Textual's public API only, a key is posted as the terminal driver posts it (a ``Key`` event
to the app, named and with its character as ``Pilot.press`` makes it) and the test goes on once the app
has *settled*: every message queued at the app and the screen's widgets handled (a callback queued
behind them at each, as ``Pilot`` itself does), no message handled anywhere in the app since (the
``message_hook`` of ``App.run_test`` counts them) while the screen is laid out and drawn at once (as
Textual's ``pause(0)`` does), and a moment later still so (the timers then due run; one more pass where
that moment came late, as on a loaded machine).  A resize is laid out 1/120 s after it (the app's
timer): ``resize_terminal`` waits a frame for it.  As
Textual's own wait, it gives up after a second of an app that never settles (a spinner): the test then
goes on, as it did.  A worker still running is not waited for (a proof waiting on its process, a fit
in a thread): a test that needs its result waits for it (``app.workers.wait_for_complete()``), as it
had to with Textual's wait, which takes a waiting thread for done.  ``pause(delay)`` with a delay is
Textual's.
"""

from __future__ import annotations

import asyncio
import unicodedata
from contextlib import asynccontextmanager
from time import monotonic

import pytest
from textual import events
from textual.app import App
from textual.keys import ASCII_KEY_NAMES, KEY_NAME_REPLACEMENTS, REPLACED_KEYS, key_to_character
from textual.pilot import Pilot

MOMENT = 0.002  # a moment for the timers already due to run (the screen is drawn by pause(0) itself)
LATE = 0.005  # a moment that long overdue: the machine is loaded, and Textual's timers were late too
RESIZE = 1 / 60  # a resize is laid out 1/120 s after it (App's resize timer): waited for with room to spare
MOST = 1.0  # seconds an unsettled app is waited for, as Textual's wait (max_sleep)
DRAIN_LIMIT = 30.0  # as Pilot's own wait for the screen's queues: an app that stopped is not waited for forever
TEXTUAL_PAUSE = Pilot.pause  # Textual's own, kept before the fixture puts this module's in its place
TEXTUAL_RUN_TEST = App.run_test
TEXTUAL_RESIZE = Pilot.resize_terminal


class Handled:
    """How many messages the app under test has handled (its own drain callbacks left out)."""

    count = 0

    @classmethod
    def hook(cls, message) -> None:
        if not getattr(getattr(getattr(message, "callback", None), "func", None), "settle_drain", False):
            cls.count += 1


def key_event(key: str) -> events.Key:
    """The event ``Pilot.press`` would send for ``key``: a character is named as Textual names it
    ("/" is "slash"), a name carries its character where it has one ("space" is " ", "f1" none)."""
    if len(key) == 1:
        name = key
        if not key.isalnum():
            try:
                name = unicodedata.name(key).lower().replace("-", "_").replace(" ", "_")
            except ValueError:
                name = ASCII_KEY_NAMES.get(key, key)
            name = KEY_NAME_REPLACEMENTS.get(name, name)
        return events.Key(name, key)
    return events.Key(key, key_to_character(REPLACED_KEYS.get(key, key)))


async def drained(app: App) -> None:
    """Every message queued now at the app and at the screen's widgets handled."""
    done = asyncio.Event()
    waiting = 0

    def one_done() -> None:
        nonlocal waiting
        waiting -= 1
        if waiting == 0:
            done.set()

    one_done.settle_drain = True  # type: ignore[attr-defined]  # told apart by Handled.hook
    try:
        nodes = [app, *app.screen.walk_children(with_self=True)]
    except Exception:  # no screen: the app is starting or has closed
        nodes = [app]
    for node in nodes:
        if node.call_later(one_done):
            waiting += 1
    if waiting:
        try:
            await asyncio.wait_for(done.wait(), DRAIN_LIMIT)
        except TimeoutError:
            pass  # the app stopped handling messages (it crashed): run_test raises its error


async def settle(pilot: Pilot, moment: bool = True) -> None:
    """Until the app has settled (the module's docstring); ``moment=False``: without the moment's wait, for
    an app that settled a moment ago."""
    end = monotonic() + MOST
    quiet = 0 if moment else 1
    while monotonic() < end:
        seen = Handled.count
        await drained(pilot.app)
        handled = Handled.count != seen
        # Textual's pause of no delay lays the screen out and draws it now, as its own wait ends: what that
        # layout sets off (a scroll to an anchor, a resize event) is handled in the next pass
        await TEXTUAL_PAUSE(pilot, 0)
        if handled:
            quiet = 0
        elif quiet == 0:
            slept = monotonic()
            await asyncio.sleep(MOMENT)
            quiet = 1 if monotonic() - slept < MOMENT + LATE else 0
        else:
            return


async def press(pilot: Pilot, *keys: str) -> None:
    for key in keys:
        if key.startswith("wait:"):  # Pilot.press's pause between keys
            await asyncio.sleep(float(key.split(":", 1)[1]) / 1000)
            continue
        pilot.app.post_message(key_event(key))
        await settle(pilot)
        started = monotonic()
        await pilot.app.animator.wait_until_complete()  # a scroll the key began, as Pilot.press waits for
        await settle(pilot, moment=monotonic() - started > MOMENT)


async def resize_terminal(pilot: Pilot, width: int, height: int) -> None:
    await TEXTUAL_RESIZE(pilot, width, height)
    await asyncio.sleep(RESIZE)
    await settle(pilot)


async def pause(pilot: Pilot, delay: float | None = None) -> None:
    if delay is None:
        await settle(pilot)
    else:
        await TEXTUAL_PAUSE(pilot, delay)


@asynccontextmanager
async def run_test(app: App, *args, **kwargs):
    kwargs.setdefault("message_hook", Handled.hook)
    async with TEXTUAL_RUN_TEST(app, *args, **kwargs) as pilot:
        yield pilot


@pytest.fixture(autouse=True)
def settled_pilot():
    """Every pilot test presses keys and pauses as this module says (its own MonkeyPatch, as kept_notices)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Pilot, "press", press)
        patch.setattr(Pilot, "pause", pause)
        patch.setattr(Pilot, "resize_terminal", resize_terminal)
        patch.setattr(App, "run_test", run_test)
        yield
