"""The fixtures the storage tests may ask for: ``small_segments`` (review logs cut into 3-row segments), defined in
tests/unit/storage_support.py with the helpers they share."""

from tests.unit.storage_support import small_segments  # noqa: F401 (a fixture)
