"""Names vulture (make test-deep) cannot see used: called by a framework or a protocol, never by our code.

Textual's hooks (on_*, action_*, compose, watch_*, CSS, BINDINGS, ...) are ignored by pattern in
pyproject.toml's [tool.vulture]; these are the rest, each with who calls it.
"""
# ruff: noqa: B018, F821
# vulture's whitelist form: each name read once, on the placeholder "_"

# Screens are imported by dotted path (drill.screens.SCREEN_PATHS), never by name
_.BrowseScreen, _.HelpScreen, _.HomeScreen, _.PracticeScreen, _.SettingsScreen, _.StatsScreen, _.SummaryScreen
_.MockSetupScreen, _.MockRunScreen, _.MockReportScreen
# Textual reads these widget attributes and styles when we set them
_.disabled, _.cursor_position, _.grid_columns, _.max_height
# Textual's check_action(action, parameters); Rich's __rich_console__(console, options); argparse's
# Action.__call__(parser, namespace, values, option_string); __exit__(*exc); a metaclass's __new__(mcls, ...)
_.parameters, _.console, _.option_string, _.exc, _.mcls, _.bases
# Python's protocols: text streams (writelines), module __getattr__ (PEP 562), classes (__mro_entries__,
# __match_args__)
_.writelines, _.__getattr__, _.__mro_entries__, _.__match_args__
# TinyDB's CachingMiddleware reads these (engine/storage): its write-cache size and its count of changes
_.WRITE_CACHE_SIZE, _._cache_modified_count
# question_bank.catalogue checks a catalogue entry with getattr(self, f"_rules_{kind}")
_._rules_links, _._rules_ranges, _._rules_accelerators, _._rules_models
# Fields of the catalogue's records (question_bank/data/*.toml), read by name: getattr(gpu, dtype), drill catalogue
_.fp8, _.fp4, _.memory_type, _.vendor, _.scale_up_bidirectional, _.ffn_dense, _.attention_kind, _.confidence
# engine.formulas' lazy attribute, made by its module __getattr__ when first read
_.FORMULAS
# Profile.export: the whole profile as one dict, the in-memory twin of export_chunks (which drill export
# streams); the tests build and compare profiles with it and import_document
_.export
# fsrs-rs-python's SimulatorConfig: engine.schedule.fsrs_fit sets these fields for the library's simulator to read
_.deck_size, _.learn_span, _.learn_limit
