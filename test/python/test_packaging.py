"""What `pip install` puts on a user's path: every package under tools/ that users import by name (seed 002's
`from profiler import *`, `from builder.base.builder_apis import *`) is one the project installs."""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_namespace_packages, find_packages

ROOT = Path(__file__).resolve().parents[2]


def installed_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    found = set()
    for where in config["where"]:
        found |= set(find_packages(where=str(ROOT / where), include=config["include"]))
    return found


def test_every_package_under_tools_is_installed():
    tools = {path.parent.name for path in (ROOT / "tools").glob("*/__init__.py")}
    assert "profiler" in tools
    assert sorted(tools - installed_packages()) == []


def test_subpackages_are_installed_with_their_parents():
    under_tools = set(find_namespace_packages(where=str(ROOT / "tools"), exclude=["*.__pycache__", "__pycache__"]))
    regular = {name for name in under_tools if (ROOT / "tools" / name.replace(".", "/") / "__init__.py").exists()}
    assert sorted(regular - installed_packages()) == []
