"""`pybuda.ci`: the helpers tt-buda's CI runs use: whether a CI output directory is set (PYBUDA_CI_DIR), where a
test's compiled binaries go, and symlinks made under a per-user lock so parallel test processes do not race."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import tempfile
from pathlib import Path

import filelock

from pybuda.config import PyBudaError, _get_global_compiler_config

CI_DIR = "PYBUDA_CI_DIR"


def enabled() -> bool:
    return CI_DIR in os.environ


def get_netlist_dir() -> str:
    """Where this test's compiled binaries go: a directory per pytest test under PYBUDA_CI_DIR in CI, else the
    compiler config's backend_output_dir."""
    if not enabled():
        return _get_global_compiler_config().backend_output_dir
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rpartition(" ")[0]
    path = os.path.join(os.environ[CI_DIR], re.sub(r"[^A-Za-z0-9_-]+", "_", test).strip("_"))
    os.makedirs(path, exist_ok=True)
    return path


def create_symlink(target_path: str, symlink_path: str, *, remove_existing: bool = False) -> None:
    """`symlink_path` made a link to `target_path`, replacing a link or file there (a directory only with
    `remove_existing`), under the lock file <tmp>/<user>/<link name>.lock."""
    target, link = Path(target_path), Path(symlink_path)
    lock_dir = Path(tempfile.gettempdir(), getpass.getuser())
    lock_dir.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(lock_dir / f"{link.name}.lock"):
        if link.is_symlink() or link.is_file():
            link.unlink()
        elif link.is_dir() and remove_existing:
            shutil.rmtree(link)
        elif link.is_dir():
            raise PyBudaError(f"create_symlink: {symlink_path} is a directory (remove_existing=True replaces it)")
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)


def initialize_output_build_directory(backend_output_directory: str) -> None:
    """An empty output directory for compiled binaries; outside CI, tt_build/test_out in the working directory
    links to it."""
    shutil.rmtree(backend_output_directory, ignore_errors=True)
    os.makedirs(backend_output_directory)
    if not enabled():
        create_symlink(os.path.abspath(backend_output_directory), os.path.join(os.getcwd(), "tt_build", "test_out"),
                       remove_existing=True)
