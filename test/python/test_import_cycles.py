"""No import circles in ttmlir/ or tools/: every module stands above the ones it imports, function-level imports
included (a local import is not a way to hide a circle). A package's __init__ counts as a module: if it re-exports
its submodules, they import their siblings, never the package back."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_files() -> dict[str, Path]:
    files = {}
    for base, prefix in ((ROOT / "ttmlir", "ttmlir"), (ROOT / "tools", "")):
        for path in base.rglob("*.py"):
            if path.name.endswith("_generated.py"):  # flatc's accessors import only flatbuffers
                continue
            parts = [prefix, *path.relative_to(base).with_suffix("").parts] if prefix else \
                list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


def imports_of(path: Path, modules: dict[str, Path], name: str) -> set[str]:
    """The project modules `path` imports anywhere in it (the longest registered prefix of each import)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_cycles() -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan's algorithm, iterative)."""
    modules = module_files()
    graph = {name: sorted(imports_of(path, modules, name)) for name, path in modules.items()}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if child < len(graph[node]):
                work.append((node, child + 1))
                succ = graph[node][child]
                if succ not in index:
                    work.append((succ, 0))
                elif succ in on_stack:
                    low[node] = min(low[node], index[succ])
                continue
            for succ in graph[node]:
                if succ in on_stack:
                    low[node] = min(low[node], low[succ])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return cycles


def test_no_import_cycles():
    cycles = import_cycles()
    assert not cycles, "import circles:\n" + "\n".join(" <-> ".join(group) for group in cycles)


def test_finds_a_planted_cycle(tmp_path, monkeypatch):
    """The check sees a circle made only of function-level imports."""
    pkg = tmp_path / "ttmlir"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from ttmlir import b\n")
    (pkg / "b.py").write_text("from ttmlir.a import f\n")
    (tmp_path / "tools").mkdir()
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert import_cycles() == [["ttmlir.a", "ttmlir.b"]]
