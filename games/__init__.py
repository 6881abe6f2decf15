"""The registry: every game by name, with its variant options applied.

This and the CLI are the only places that know every game. A game module defines
``GAME``, a frozen dataclass whose fields are its variant options, and may define
``GAMES`` when one module serves several games as presets (FreeCell and Seahaven Towers).
"""
from __future__ import annotations

import dataclasses
import importlib
from typing import Any, Mapping

from solver.game import Game, UnknownGameError, quote
from solver.text import read_number

MODULES = ("freecell", "black_hole", "the_clock", "klondike", "yukon", "spider", "forty_thieves",
           "crescent", "gaps", "chris_cross_pairs", "crisscross", "bridge_solitaire")


def _load() -> dict[str, Any]:
    games: dict[str, Any] = {}
    for module_name in MODULES:
        try:
            module = importlib.import_module(f"games.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"games.{module_name}":
                raise
            continue                       # not written yet
        for game in getattr(module, "GAMES", (module.GAME,)):
            games[game.name] = game
    return games


GAMES: dict[str, Any] = _load()


def game_names() -> list[str]:
    """Return the registered games' names."""
    return list(GAMES)


def _lookup(name: str) -> tuple[Any, dict[str, Any]]:
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for game in GAMES.values():
        if wanted == game.name or wanted in game.aliases:
            return game, {}
    for game in GAMES.values():
        if wanted in game.presets:
            return game, dict(game.presets[wanted])
    raise UnknownGameError(f"unknown game {quote(name)}; `solitaire games` lists them")


def find_game(name: str, options: Mapping[str, Any] | None = None) -> Game[Any, Any]:
    """Return the game called `name` (an alias or a preset name too) with `options` applied.

    Option values may be strings (from ``--variant key=value``); they are converted to
    the type of the option's default. Unknown options and bad values raise
    UnknownGameError with a message naming the game's options.
    """
    game, preset = _lookup(name)
    fields = {f.name: f for f in dataclasses.fields(game) if f.name != "name"}
    changes: dict[str, Any] = dict(preset)
    for option, value in (options or {}).items():
        option = option.replace("-", "_")
        if option not in fields:
            known = ", ".join(fields) or "none"
            raise UnknownGameError(f"{game.name} has no variant option {quote(option)} (options: {known})")
        changes[option] = _convert(game.name, option, value, getattr(game, option))
    try:
        chosen: Game[Any, Any] = dataclasses.replace(game, **changes) if changes else game
        return chosen
    except ValueError as error:
        raise UnknownGameError(f"{game.name}: {error}") from None
    except TypeError:
        settings = " ".join(f"{k}={v}" for k, v in changes.items())
        raise UnknownGameError(f"{game.name}: {quote(settings, 60)} is not a valid variant") from None


def parse_variants(pairs: list[str]) -> dict[str, str]:
    """Return ``{"cells": "2"}`` from ``["cells=2"]``; raise UnknownGameError if malformed."""
    options: dict[str, str] = {}
    for pair in pairs:
        option, sep, value = pair.partition("=")
        if not sep or not option.strip() or not value.strip():
            raise UnknownGameError(f"variant {quote(pair)} is not of the form key=value")
        options[option.strip()] = value.strip()
    return options


def _convert(game: str, option: str, value: Any, default: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        if isinstance(default, bool):
            lowered = value.lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if isinstance(default, int) or default is None:
            # "none"/"unlimited" only where the option may be unlimited (its default is None)
            if default is None and value.lower() in ("none", "unlimited"):
                return None
            written = value.strip()
            number = read_number(written.removeprefix("-"))      # ASCII digits only
            if number is None:
                raise ValueError(value)
            return -number if written.startswith("-") else number
    except ValueError:
        raise UnknownGameError(f"{game}: variant {option}={quote(value, 20)} is not a valid "
                               "value" + (": give a whole number" if default is not None
                                          and not isinstance(default, bool) else "")) from None
    return value
