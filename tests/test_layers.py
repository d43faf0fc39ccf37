"""The package's layers point one way: no module imports from a layer above its own, and no imports go in circles.

Every ``import`` statement counts, at module level or inside a function. The layers, from the
bottom: a module may import its own layer and the ones below. A layer lists whole folders (and the
modules at the package's top), never a file inside a folder, and no folder imports a folder that
imports it back. The top-level ``training/`` scripts sit above the whole package, so nothing in it
may import them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "stonk_envs"
SCRIPTS = "training"

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("stonk_envs", "stonk_envs.champions", "stonk_envs.compiled_cache", "stonk_envs.extras",
              "stonk_envs.files", "stonk_envs.registry", "stonk_envs.configs", "stonk_envs.safe_load",
              "stonk_envs.text")),
    ("rules", ("stonk_envs.core",)),
    ("games", ("stonk_envs.games", "stonk_envs.cli_args")),
    ("pictures", ("stonk_envs.render",)),
    ("envs", ("stonk_envs.stockpile_v0", "stonk_envs.stockpile_v1", "stonk_envs.stocks_and_bombs_v0",
              "stonk_envs.stocks_and_bombs_v1", "stonk_envs.stonk_market_v0", "stonk_envs.stonk_market_v1",
              "stonk_envs.games_index", "stonk_envs.game_facts", "stonk_envs.records")),
    ("players", ("stonk_envs.policies",)),
    ("engine and adapters", ("stonk_envs.vector", "stonk_envs.single_agent")),
    ("evaluation and replay", ("stonk_envs.evaluation", "stonk_envs.replay")),
    ("training", ("stonk_envs.training",)),
    ("other libraries' trainers", ("stonk_envs.integrations",)),
    ("tools", ("stonk_envs.convert", "stonk_envs.play", "stonk_envs.bench", "stonk_envs.soak", "stonk_envs.demo",
               "stonk_envs.configs_cli", "stonk_envs.serve")),
    ("command line", ("stonk_envs.cli",)),
    ("training scripts", (SCRIPTS,)),
]
"""Bottom first. A module belongs to the layer of its folder: a folder of the package, or a module at its top
(``stonk_envs`` itself only exactly). The RLlib integration sits above training: its driver shares the
trainer's thread budget."""


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """``{dotted module name: file}`` for every ``.py`` file under ``root/<package>``."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """``{module: the modules of ``modules`` it imports}``; ``from a import b`` counts as ``a.b`` when that is one."""

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(known(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = module.split(".")[: len(module.split(".")) - node.level + is_package]
                    base = ".".join([*anchor, base] if base else anchor)
                targets.update(known(f"{base}.{alias.name}") or known(base) for alias in node.names)
        edges[module] = {target for target in targets if target and target != module}
    return edges


def layer_of(module: str, layers=LAYERS) -> int | None:
    """The index of ``module``'s layer, or None when no layer lists it."""
    best, best_length = None, -1
    for index, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            matches = module == prefix or (prefix != PACKAGE and module.startswith(prefix + "."))
            if matches and len(prefix) > best_length:
                best, best_length = index, len(prefix)
    return best


def upward_imports(edges: dict[str, set[str]], layers=LAYERS) -> list[str]:
    """Every import of a module from a layer above the importer's, as ``"a (layer) -> b (layer)"``."""
    found = []
    for source, targets in sorted(edges.items()):
        for target in sorted(targets):
            low, high = layer_of(source, layers), layer_of(target, layers)
            if low is not None and high is not None and high > low:
                found.append(f"{source} ({layers[low][0]}) -> {target} ({layers[high][0]})")
    return found


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: the strongly connected groups of two or more modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def folder_of(module: str) -> str:
    """The unit a layer lists: the package's folder holding ``module`` (``a.b`` of ``a.b.c``), or the module
    itself at the package's top; a module outside the package counts as its top folder."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == PACKAGE else parts[0]


def folder_edges(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The imports between folders: ``{folder: the other folders its modules import}``."""
    found: dict[str, set[str]] = {}
    for source, targets in edges.items():
        found.setdefault(folder_of(source), set()).update(folder_of(target) for target in targets)
    return {folder: targets - {folder} for folder, targets in found.items()}


def files_in_folders(layers=LAYERS) -> list[str]:
    """The layers' prefixes that name something inside a folder of the package, not a whole one."""
    return [prefix for _, prefixes in layers for prefix in prefixes
            if prefix != PACKAGE and prefix.startswith(PACKAGE) and folder_of(prefix) != prefix]


@pytest.fixture(scope="module")
def edges():
    return imports(module_files(ROOT, (PACKAGE, SCRIPTS)))


def test_every_module_has_a_layer(edges):
    assert [module for module in sorted(edges) if layer_of(module) is None] == []


def test_no_module_imports_from_a_layer_above(edges):
    assert upward_imports(edges) == []


def test_no_import_circles(edges):
    assert circles(edges) == []


def test_layers_list_whole_folders():
    assert files_in_folders() == []


def test_no_folder_imports_a_folder_that_imports_it_back(edges):
    assert circles(folder_edges(edges)) == []


def test_the_checks_find_an_upward_import_and_a_circle(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/low.py": "from pkg import high\n",
        "pkg/high.py": "def f():\n    from . import low\n",
        "pkg/sub/__init__.py": "from .. import low\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = imports(module_files(tmp_path, ("pkg",)))
    assert found == {"pkg": set(), "pkg.low": {"pkg.high"}, "pkg.high": {"pkg.low"}, "pkg.sub": {"pkg.low"}}
    layers = [("low", ("pkg.low",)), ("high", ("pkg.high", "pkg.sub"))]
    assert upward_imports(found, layers) == ["pkg.low (low) -> pkg.high (high)"]
    assert circles(found) == [["pkg.high", "pkg.low"]]


def test_the_checks_find_folders_that_import_each_other_and_a_file_given_its_own_layer(tmp_path):
    files = {
        f"{PACKAGE}/__init__.py": "",
        f"{PACKAGE}/a/__init__.py": "",
        f"{PACKAGE}/a/x.py": f"from {PACKAGE}.b import y\n",
        f"{PACKAGE}/b/__init__.py": "",
        f"{PACKAGE}/b/y.py": "",
        f"{PACKAGE}/b/z.py": f"from {PACKAGE}.a import x\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = imports(module_files(tmp_path, (PACKAGE,)))
    assert circles(found) == []  # no module imports itself back ...
    assert circles(folder_edges(found)) == [[f"{PACKAGE}.a", f"{PACKAGE}.b"]]  # ... but the folders do
    layers = [("low", (f"{PACKAGE}.a",)), ("high", (f"{PACKAGE}.b", f"{PACKAGE}.a.x"))]
    assert files_in_folders(layers) == [f"{PACKAGE}.a.x"]
