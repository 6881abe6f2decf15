"""The registry: every game by name, with its variant options applied.

This and the CLI are the only places that know every game, and no list names them: every
module of this package (its name without a leading ``_``) is a game module. It defines
``GAME``, a frozen dataclass subclassing ``solver.game.Game`` whose fields are its variant
options, or ``GAMES`` when one module serves several games (FreeCell and Seahaven Towers).
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any, Mapping

from solver.game import Game, UnknownGameError, quote
from solver.text import read_number

def _modules() -> list[str]:
    """Return the game modules: every module of this package whose name has no leading _
    (those hold a game's compiled rules, models and helpers)."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__)
                  if not info.name.startswith("_"))


def _load() -> dict[str, Game[Any, Any]]:
    """Return every game by name: each module's ``GAMES``, or its ``GAME``."""
    games: dict[str, Game[Any, Any]] = {}
    for module_name in _modules():
        module = importlib.import_module(f"games.{module_name}")
        for game in getattr(module, "GAMES", (module.GAME,)):
            if Game not in type(game).__mro__:
                raise TypeError(f"games.{module_name}: {type(game).__name__} does not "
                                "subclass solver.game.Game")
            if game.name in games:
                raise TypeError(f"games.{module_name}: a second game named {game.name!r}")
            games[game.name] = game
    return games


GAMES: dict[str, Game[Any, Any]] = _load()


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
    fields = {f.name: f for f in dataclasses.fields(game)}
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
