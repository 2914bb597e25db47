"""`ttrt.binary`: loading `.ttnn` files and reading their contents."""

from __future__ import annotations

from ttmlir.runtime.executor import Binary, golden_to_torch
from ttmlir.target.flatbuffer import BinaryError, load


def load_binary_from_path(path: str) -> Binary:
    return Binary(path)


def load_system_desc_from_path(path: str):
    return load(path, expect="ttsys")[1]


__all__ = ["Binary", "BinaryError", "golden_to_torch", "load_binary_from_path", "load_system_desc_from_path"]
