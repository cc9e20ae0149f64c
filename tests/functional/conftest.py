"""The fixtures every functional test may ask for: ``profile`` (a profile in a temp folder) and ``clock`` (an
injected clock), defined in tests/functional/app_support.py with the helpers the app's pilot tests share; and
the pilot's keys and pauses that wait for the app to settle (tests/functional/settle.py)."""

from tests.functional.app_support import clock, kept_notices, profile  # noqa: F401 (fixtures)
from tests.functional.settle import settled_pilot  # noqa: F401 (a fixture)
