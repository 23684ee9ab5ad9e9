"""The layers of docs/architecture.md: the import-linter contracts in pyproject.toml hold and cover every module."""

from __future__ import annotations

import ast
import builtins
import importlib
import symtable
import tomllib
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
LAB = ("simulate", "analysis")
_LINTER = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
CONTRACTS = {c["id"]: c for c in _LINTER["contracts"]}


def _children(package: str) -> set[str]:
    """The modules and packages directly inside a package of the source tree, as dotted names."""
    folder = ROOT.joinpath(*package.split("."))
    names = {p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")}
    names |= {p.parent.name for p in folder.glob("*/__init__.py")}
    return {f"{package}.{name}" for name in names}


def test_the_import_contracts_are_kept(capsys) -> None:
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert code == 0, capsys.readouterr().out


def test_every_module_is_placed_in_a_layer() -> None:
    """A new module of ``analysis`` is in a layer; one of ``simulate`` is under the click contract or is the CLI, one
    under the orchestration is on a floor of ``simulate-floors``, and one of Golem's in a room of ``golem-rooms``."""
    layered = {m.strip() for layer in CONTRACTS["layers"]["layers"] for m in layer.replace(":", "|").split("|")}
    assert _children("analysis") <= layered, sorted(_children("analysis") - layered)
    below_cli = set(CONTRACTS["click-on-top"]["source_modules"])
    assert _children("simulate") - {"simulate.cli"} <= below_cli, sorted(_children("simulate") - below_cli)
    games = set(CONTRACTS["engines-apart"]["modules"])
    assert _children("simulate.games") == games
    floors = {m.strip() for layer in CONTRACTS["simulate-floors"]["layers"] for m in layer.replace(":", "|").split("|")}
    below = _children("simulate") - {"simulate.cli", "simulate.orchestration"}
    assert below == floors, sorted(below ^ floors)
    golem = CONTRACTS["golem-rooms"]
    rooms = {f"{golem['containers'][0]}.{m.strip()}" for layer in golem["layers"] for m in layer.split("|")}
    assert _children("simulate.games.golem") == rooms, sorted(_children("simulate.games.golem") ^ rooms)


def test_no_function_local_import_of_the_lab_below_the_cli() -> None:
    """Imports of ``simulate`` and ``analysis`` are at the top of each module, so every dependency is visible
    (the CLI's commands import their heavy modules inside them, which is allowed)."""
    found = []
    for top in LAB:
        for path in (ROOT / top).rglob("*.py"):
            if path.is_relative_to(ROOT / "simulate" / "cli"):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for func in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
                for node in ast.walk(func):
                    if isinstance(node, ast.ImportFrom):
                        names = [node.module or ""]
                    elif isinstance(node, ast.Import):
                        names = [alias.name for alias in node.names]
                    else:
                        continue
                    found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.split(".")[0] in LAB]
    assert not found, found


WALLED = ("simulate.games.golem.engine", "simulate.games.golem.reference")
"""Sub-packages whose private names stay inside (the ``golem-rooms`` contract orders them; this keeps them apart)."""


def _is_private(name: str) -> bool:
    """A leading underscore, not a dunder (``__version__`` is public)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_imports() -> list[tuple[str, str, str]]:
    """(importing module, imported module, name) of every ``from <lab module> import _name`` of the lab."""
    found = []
    for top in LAB:
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT).with_suffix("")
            importer = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LAB:
                    found += [(importer, node.module, a.name) for a in node.names if _is_private(a.name)]
    return found


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_no_private_name_crosses_a_wall() -> None:
    """A private name is imported from another module only inside a walled sub-package (its rules modules share
    their helpers): never into one or out of one, and never between the other modules of the lab."""
    imports = _private_imports()
    assert any(_inside(source, WALLED[0]) for source, _, _ in imports)  # the scan sees the engine's own imports
    crossing = [
        f"{source} imports {module}.{name}"
        for source, module, name in imports
        if not any(_inside(source, package) and _inside(module, package) for package in WALLED)
    ]
    assert not crossing, crossing


def _unbound(text: str, defined: set[str]) -> list[str]:
    """Names a module's code reads as globals that are not in ``defined`` (its globals after import, and builtins):
    what ruff's undefined-name check would say of a module whose star imports hide it (symtable's scopes)."""
    missing = []

    def walk(table: symtable.SymbolTable) -> None:
        top = table.get_type() == "module"
        for s in table.get_symbols():
            free = s.is_global() or (top and not s.is_assigned() and not s.is_imported())
            if s.is_referenced() and free and s.get_name() not in defined:
                missing.append(s.get_name())
        for child in table.get_children():
            walk(child)

    walk(symtable.symtable(text, "<module>", "exec"))
    return missing


def test_a_module_that_star_imports_its_codes_reads_no_unbound_name() -> None:
    """The games' modules take their codes and layouts whole (``from <game>.codes import *``, F403/F405 waived): no
    name they read may be left unbound, which ruff can no longer see there; a planted typo is found."""
    star = []
    for path in sorted((ROOT / "simulate").rglob("*.py")):
        text = path.read_text()
        if "import *" not in text:
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        defined = set(vars(importlib.import_module(name))) | set(dir(builtins))
        assert _unbound(text, defined) == [], name
        star.append((text, defined))
    assert star, "no module star-imports: drop this test and the waivers"
    text, defined = star[0]
    assert _unbound(text + "\n\ndef _typo():\n    return D_NO_SUCH_CODE\n", defined) == ["D_NO_SUCH_CODE"]
