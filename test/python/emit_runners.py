"""Runners the tests share: generated C++ and Python run by `ttrt emitc` / `ttrt emitpy` on a model and its inputs."""

import json
from pathlib import Path


def run_emitc(tmp_path: Path, cpp: str, binary: bytes | None, **flags) -> dict:
    from ttrt.common.api import API

    (tmp_path / "model.cpp").write_text(cpp)
    args = {"binary": str(tmp_path / "model.cpp"), "--result-file": str(tmp_path / "emitc_results.json"),
            "--artifact-dir": str(tmp_path / "artifacts"), **flags}
    if binary is not None:
        (tmp_path / "model.ttnn").write_bytes(binary)
        args["--flatbuffer"] = str(tmp_path / "model.ttnn")
    _, (result,) = API.EmitC(args=args)()
    return result


def run_emitpy(tmp_path: Path, py: str, ttnn_binary: bytes | None, **flags) -> list[dict]:
    from ttrt.common.api import API

    (tmp_path / "model.py").write_text(py)
    args = {"binary": str(tmp_path / "model.py"), "--result-file": str(tmp_path / "emitpy_results.json"),
            "--artifact-dir": str(tmp_path / "artifacts"), **flags}
    if ttnn_binary is not None:
        (tmp_path / "model.ttnn").write_bytes(ttnn_binary)
        args["--flatbuffer"] = str(tmp_path / "model.ttnn")
    code, results = API.EmitPy(args=args)()
    assert json.loads((tmp_path / "emitpy_results.json").read_text()) == results
    return results
