"""The layers run one way: the application uses the engine and the games, the games the engine.

Every module's imports are read with ``ast`` (imports inside functions and under
``TYPE_CHECKING`` count too), and these rules are checked:

- the engine (``solver/`` outside ``solver/app/``; ``solver/__main__.py``, which runs the
  command line for ``python -m solver``, counts as the application) imports neither
  ``games`` nor ``solver.app``: it knows no game;
- in the application (``solver/app/``) only ``cli.py`` imports ``games``, the registry: the
  rest takes game objects, never names;
- the games never import ``solver.app``;
- a game's private module (``games/_*.py``: rules, CP-SAT model, shared helpers) never
  imports a game module (``games/<game>.py``) or the registry, and no game module imports
  another game module: a game module uses its private modules, never the reverse.

A last test checks that optional hooks are read in one place: the engine and the
application call ``getattr`` and ``hasattr`` only where listed in ``ATTRIBUTE_READS``.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    """Return the dotted name of a source file under the repository root."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for folder in ("solver", "games")
           for path in sorted((ROOT / folder).rglob("*.py"))}


def imported(source: str, name: str, modules: set[str], package: bool = False) -> set[str]:
    """Return the modules that `source`, module `name`, imports anywhere in it.

    ``from package import x`` counts as importing ``package.x`` when that is one of
    `modules`, else ``package``; a relative import is resolved against `name` (itself a
    package when `package` is true).
    """
    found: set[str] = set()
    parts = name.split(".") if package else name.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = parts[:len(parts) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return found


def imports_of(name: str) -> set[str]:
    path = MODULES[name]
    return imported(path.read_text(encoding="utf-8"), name, set(MODULES),
                    package=path.name == "__init__.py")


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def in_application(name: str) -> bool:
    return within(name, "solver.app") or name == "solver.__main__"


def is_game_module(name: str) -> bool:
    return name.startswith("games.") and not name.rpartition(".")[2].startswith("_")


def violations(imports: dict[str, set[str]]) -> list[str]:
    """Return every import that breaks a rule of the module docstring, as "a imports b"."""
    found = []
    for name, targets in sorted(imports.items()):
        for target in sorted(targets):
            if within(name, "solver") and not in_application(name):
                wrong = within(target, "games") or within(target, "solver.app")
            elif in_application(name):
                wrong = within(target, "games") and name != "solver.app.cli"
            elif is_game_module(name):
                wrong = within(target, "solver.app") or (is_game_module(target) and target != name)
            elif within(name, "games") and name != "games":        # a private module
                wrong = within(target, "solver.app") or target == "games" or is_game_module(target)
            else:                                                  # the registry
                wrong = within(target, "solver.app")
            if wrong:
                found.append(f"{name} imports {target}")
    return found


def test_every_module_keeps_to_its_layer():
    found = violations({name: imports_of(name) for name in MODULES})
    assert not found, "\n".join(found)


def test_the_imports_read_are_the_real_ones():
    assert "games" in imports_of("solver.app.cli")
    assert {"games._black_hole_rules", "solver.game"} <= imports_of("games.black_hole")
    assert "games._black_hole_cpsat" in imports_of("games.black_hole")        # inside a method
    assert "solver.search.result" in imports_of("games.the_clock")           # TYPE_CHECKING
    assert "solver.app.record" in imports_of("solver.app.batch")
    assert imported("from . import base\nfrom .views import narrowed\n", "solver.search.dfs",
                    set(MODULES)) == {"solver.search.base", "solver.search.views"}


def test_the_rules_catch_each_kind_of_wrong_import():
    wrong = {
        "solver.search.dfs": {"games.klondike", "solver.app.analyze", "solver.game"},
        "solver.app.batch": {"games", "solver.search"},
        "solver.app.cli": {"games"},
        "games.yukon": {"games.klondike", "games._yukon_rules", "solver.app.record"},
        "games._yukon_rules": {"games.yukon", "solver.cards"},
        "games._deadlock": {"games"},
    }
    assert violations(wrong) == [
        "games._deadlock imports games", "games._yukon_rules imports games.yukon",
        "games.yukon imports games.klondike", "games.yukon imports solver.app.record",
        "solver.app.batch imports games", "solver.search.dfs imports games.klondike",
        "solver.search.dfs imports solver.app.analyze"]


# Where the engine and the application may call getattr or hasattr, and why. Optional
# hooks of a game are read only by solver.game.guidance.
ATTRIBUTE_READS = {
    ("solver.game", "guidance"): "the one reader of a game's optional hooks",
    ("solver.game", "use_rules"): "reads the compiled rules object, not the game",
    ("solver.game", "twins"): "a game's small twins, for the tests; no search reads them",
    ("solver.search.views", "__getattr__"): "a view forwards to the game it wraps",
    ("solver.table", "<module>"): "a platform check on os",
}


class _AttributeReads(ast.NodeVisitor):
    """Collects the functions (innermost, or ``<module>``) that call getattr or hasattr."""

    def __init__(self) -> None:
        self.scopes = ["<module>"]
        self.found: set[str] = set()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scopes.append(node.name)
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            self.found.add(self.scopes[-1])
        self.generic_visit(node)


def test_optional_hooks_are_read_only_in_guidance():
    found = set()
    for name, path in MODULES.items():
        if within(name, "solver"):
            reads = _AttributeReads()
            reads.visit(ast.parse(path.read_text(encoding="utf-8")))
            found.update((name, scope) for scope in reads.found)
    assert found <= set(ATTRIBUTE_READS), sorted(found - set(ATTRIBUTE_READS))
    assert ("solver.game", "guidance") in found
