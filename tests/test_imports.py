"""The kit's modules import one another one way: no import cycle, and the layers hold.

The import graph is read from the source with :mod:`ast` (nothing is imported): a node per
module of the ``playtest`` package, an edge from a module to each ``playtest`` module it
imports, at the top of the file or inside a function alike (an import inside a function
is still a dependency; the repository passes with them counted). ``from P import name``
is an edge to the module ``P.name`` when there is one, else to ``P`` itself. A package's
``__init__`` that Python runs before a submodule is not an edge of its own: otherwise
every module importing a sibling of a package whose ``__init__`` re-exports its modules
would count as a cycle, which is how Python packages are meant to work.
"""
from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

KNOWN_CYCLES: list[set[str]] = []
"""Cycles allowed for now; each must still exist (the test says when one is gone)."""


def import_graph(root: Path, package: str = "playtest") -> dict[str, set[str]]:
    """``{module: modules of the package it imports}`` for the package ``root/package``."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph = {}
    for name, (path, is_package) in modules.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names if alias.name in modules}
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".") \
                    if node.level else node.module
                for alias in node.names:
                    target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    if target in modules:
                        targets.add(target)
        graph[name] = targets - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative): each is a set of modules that import one another, directly or not."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def describe(component: set[str], graph: dict[str, set[str]]) -> str:
    return "; ".join(f"{m} imports {', '.join(sorted(graph[m] & component))}" for m in sorted(component))


def test_the_cycle_finder_names_a_cycle_through_an_import_inside_a_function(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .a import thing\n")
    (package / "a.py").write_text("from pkg.sub import b\nthing = 1\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "b.py").write_text("def late():\n    from ..c import x\n")
    (package / "c.py").write_text("import pkg.a\nx = 2\n")
    (package / "d.py").write_text("from . import c\n")        # into the cycle, not part of it
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.sub.b"] == {"pkg.c"} and graph["pkg.d"] == {"pkg.c"}
    assert cycles(graph) == [{"pkg.a", "pkg.sub.b", "pkg.c"}]


def test_no_module_of_the_kit_imports_one_that_imports_it_back():
    graph = import_graph(ROOT)
    assert "playtest.cli" in graph and graph["playtest.cli"]          # the graph was read
    found = cycles(graph)
    unknown = [describe(c, graph) for c in found if c not in KNOWN_CYCLES]
    assert not unknown, f"import cycles: {unknown}"
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not gone, f"these cycles are gone: remove them from KNOWN_CYCLES: {gone}"


def test_the_layers_import_one_way():
    """The engine needs no other part of the kit; the table service, scenarios and the
    lab need no server and no widget (the server mounts the tables; pages render them);
    the CLI's parsing helpers are the ones in :mod:`playtest.arguments`."""
    graph = import_graph(ROOT)
    forbidden = {"playtest.engine": ("playtest.",), "playtest.tables": ("playtest.server", "playtest.widgets"),
                 "playtest.scenarios": ("playtest.server", "playtest.widgets", "playtest.tables"),
                 "playtest.lab": ("playtest.server", "playtest.widgets", "playtest.cli")}
    wrong = []
    for layer, not_allowed in forbidden.items():
        for module, targets in graph.items():
            if module == layer or module.startswith(layer + "."):
                wrong += [f"{module} imports {t}" for t in sorted(targets) if t != layer and
                          not t.startswith(layer + ".") and t.startswith(not_allowed)]
    assert not wrong, wrong


def test_the_jupyter_config_enables_the_tables_extension_where_it_is():
    config = json.loads((ROOT / "jupyter-config/jupyter_server_config.d/playtest.json").read_text())
    (name, enabled), = config["ServerApp"]["jpserver_extensions"].items()
    module = importlib.import_module(name)
    assert enabled and module._jupyter_server_extension_points() == [{"module": name}]
    assert callable(module._load_jupyter_server_extension)
