"""The goldens check the simulator's kernels, so they must not be computed by them: a golden that calls the kernel
it checks agrees with whatever the kernel does (a StableHLO gather's golden once called the kernel's function,
which ignored batching dims, and both said the same wrong thing)."""

import ast
from pathlib import Path

import golden

# what a golden may share with the runtime: the definition of a sampling op's randomness (its draws per seed)
SHARED = {("ttmlir.runtime.kernels", "sampling_draws")}


def runtime_imports(path: Path) -> set[tuple[str, str]]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ttmlir.runtime"):
            found |= {(node.module, alias.name) for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {(alias.name, "*") for alias in node.names if alias.name.startswith("ttmlir.runtime")}
    return found


def test_goldens_import_nothing_of_the_simulator_but_the_sampling_draws():
    files = sorted(Path(golden.__file__).parent.glob("*.py"))
    assert files
    used = {(path.name, *imported) for path in files for imported in runtime_imports(path)}
    assert {(module, name) for _, module, name in used} <= SHARED, sorted(used)
