"""`Logger` and `Artifacts`, as ttrt's Python API exposes them."""

from __future__ import annotations

import fcntl
import io
import json
import logging
import os
import shutil
import sys
from pathlib import Path

from ttmlir.cli import write_atomic

LEVELS = {"DEBUG": logging.DEBUG, "INFO": logging.INFO, "WARNING": logging.WARNING, "ERROR": logging.ERROR,
          "CRITICAL": logging.CRITICAL}


class Logger:
    """Logs to the terminal and, when `file_name` is given, to that file. Level: TTRT_LOGGER_LEVEL or LOGGER_LEVEL."""

    _count = 0

    def __init__(self, file_name: str = ""):
        Logger._count += 1
        self.file_name = file_name
        level = LEVELS.get((os.environ.get("TTRT_LOGGER_LEVEL") or os.environ.get("LOGGER_LEVEL") or "INFO").upper(),
                           logging.INFO)
        self.logger = logging.getLogger(f"ttrt.{Logger._count}")
        self.logger.setLevel(level)
        self.logger.propagate = False
        terminal = logging.StreamHandler(sys.stdout)
        terminal.setFormatter(logging.Formatter("%(message)s"))
        self.logger.addHandler(terminal)
        if file_name:
            handler = logging.FileHandler(file_name, mode="w", encoding="utf-8")
            handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
            self.logger.addHandler(handler)

    def get_logger(self) -> logging.Logger:
        return self.logger

    def debug(self, message: str) -> None:
        self.logger.debug(message)

    def info(self, message: str) -> None:
        self.logger.info(message)

    def warning(self, message: str) -> None:
        self.logger.warning(message)

    def error(self, message: str) -> None:
        self.logger.error(message)


def default_artifacts_folder() -> str:
    return str(Path(os.environ.get("TT_MLIR_HOME", os.getcwd())) / "ttrt-artifacts")


class Artifacts:
    """The folder where ttrt saves binaries, tensors and reports: one sub-folder per binary."""

    def __init__(self, logger: Logger | None = None, file_manager=None, artifacts_folder_path: str = ""):
        self.logger = logger or Logger()
        self.artifacts_folder_path = artifacts_folder_path or default_artifacts_folder()
        self._locks: dict[Path, object] = {}

    def get_artifacts_folder_path(self) -> str:
        return self.artifacts_folder_path

    def clean_artifacts(self) -> None:
        shutil.rmtree(self.artifacts_folder_path, ignore_errors=True)
        self.logger.debug(f"cleaned artifacts folder {self.artifacts_folder_path}")

    def create_artifacts(self) -> None:
        Path(self.artifacts_folder_path).mkdir(parents=True, exist_ok=True)

    def binary_folder(self, binary_path: str) -> Path:
        """The binary's folder, held by this run until `release()`: concurrent runs of one binary into one
        artifacts folder take turns instead of mixing their tensors and reports."""
        folder = Path(self.artifacts_folder_path) / Path(binary_path).name
        folder.mkdir(parents=True, exist_ok=True)
        if folder not in self._locks:
            lock = open(folder / ".lock", "w")
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self.logger.info(f"waiting for another ttrt run writing {folder}")
                fcntl.flock(lock, fcntl.LOCK_EX)
            self._locks[folder] = lock
        return folder

    def release(self) -> None:
        """Let other runs write the folders this run has used."""
        for lock in self._locks.values():
            lock.close()
        self._locks.clear()

    def save_binary(self, binary_path: str) -> Path:
        folder = self.binary_folder(binary_path)
        shutil.copy(binary_path, folder / Path(binary_path).name)
        return folder

    def save_json(self, folder: Path, name: str, data) -> Path:
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(str(path), json.dumps(data, indent=4) + "\n")
        return path

    def save_torch_tensor(self, folder: Path, name: str, tensor) -> Path:
        import torch

        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        torch.save(tensor, buffer)
        write_atomic(str(path), buffer.getvalue())
        return path
