"""Shared services: the cabinet's settings, the checks every configuration file is read with, the
words of a key binding, the settings file's one rewriter and safe file writing.

    settings.py     the settings in config.toml: `load_settings` (never raises; `warnings` says what was wrong)
    checks.py       `Problem` and `Checker`: a file's values read a key at a time, each mistake named
    bindings.py     the players and controls, a `[keys]` entry's "player control", known key names
    config_file.py  config.toml on disk: read with its last good copy behind it, changed in place (tomlkit)
                    by `adjust`, the one function where an adjustment is made
    files.py        `write_atomically`: a power cut leaves the old file or the new one

Everything may import this package; it imports only the standard library, the rules core
(appliance/rules: the presets, house rules and controls it checks names against), tomlkit (to change
config.toml keeping what the operator wrote) and, for key names, pygame when asked. Never the
screen, the inputs, the match or the bots (tests/test_imports.py holds it to that).
"""
