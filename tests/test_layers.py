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

The last tests check the shape of a game: the engine and the application read a game's
hooks as declared members (``solver.game.Game`` gives each its default), calling
``getattr`` and ``hasattr`` only where listed in ``ATTRIBUTE_READS``; no method of a game
class only hands its arguments on to the compiled rules (``from_rules`` declares that in
one line); and no central list names the games or their compiled modules.
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


# Where the engine and the application may call getattr or hasattr, and why. A game's
# optional hooks are declared members of solver.game.Game: they are read as attributes.
ATTRIBUTE_READS = {
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


def test_hooks_are_read_as_declared_members_not_with_getattr():
    found = set()
    for name, path in MODULES.items():
        if within(name, "solver"):
            reads = _AttributeReads()
            reads.visit(ast.parse(path.read_text(encoding="utf-8")))
            found.update((name, scope) for scope in reads.found)
    assert found <= set(ATTRIBUTE_READS), sorted(found - set(ATTRIBUTE_READS))


def _delegates_only(function: ast.FunctionDef) -> bool:
    """Whether a method's body, past its docstring, only returns ``self.rules.f(args)``
    with its own arguments in order: a stub that ``from_rules`` replaces."""
    body = function.body[1:] if ast.get_docstring(function) is not None else function.body
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    call = body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Attribute) and call.func.value.attr in ("rules", "_rules")):
        return False
    params = [a.arg for a in function.args.args[1:]]
    args = [a.id for a in call.args if isinstance(a, ast.Name)]
    return len(args) == len(call.args) and args == params and not call.keywords


def test_no_game_method_only_hands_on_to_its_rules():
    stubs = []
    for name, path in MODULES.items():
        if within(name, "games") and not name.split(".")[-1].startswith("_"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    stubs += [f"{name}.{node.name}.{f.name}" for f in node.body
                              if isinstance(f, ast.FunctionDef) and _delegates_only(f)]
    assert stubs == [], f"declare these with from_rules: {stubs}"


def test_a_stub_is_recognised():
    stub = ast.parse("class G:\n    def moves(self, state):\n        'Doc.'\n"
                     "        return self.rules.moves(state)\n").body[0]
    adapter = ast.parse("class G:\n    def expand(self, state, move):\n"
                        "        return self.rules.expand(move)\n").body[0]
    assert isinstance(stub, ast.ClassDef) and isinstance(adapter, ast.ClassDef)
    assert _delegates_only(stub.body[0]) and not _delegates_only(adapter.body[0])


def test_no_central_list_names_the_games_or_their_compiled_modules():
    games = {path.stem for path in (ROOT / "games").glob("*.py") if not path.stem.startswith("_")}
    registry = ast.parse((ROOT / "games" / "__init__.py").read_text(encoding="utf-8"))
    named = {node.value for node in ast.walk(registry)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not games & named, games & named
    setup = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = [node.value for node in ast.walk(setup)
              if isinstance(node, ast.Constant) and str(node.value).startswith("games/")]
    assert listed == []                     # compiled: found by a glob over games/_*.py
