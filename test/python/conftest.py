import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # helpers the tests share (ttir_eval), wherever a test sits


@pytest.fixture
def fresh_pybuda():
    """PyBuda's global state (devices, queues, compiler config) reset around a test, torch seeded."""
    import pybuda
    import torch

    pybuda.pybuda_reset()
    torch.manual_seed(0)
    yield
    pybuda.pybuda_reset()


@pytest.fixture(scope="session", autouse=True)
def tool_server(tmp_path_factory):
    """The command-line tools the tests start, served warm (tools/ttmlir_server), as lit's suite has them: a test
    that must start them cold sets TTMLIR_TOOL_SERVER itself. TTMLIR_TOOL_SERVER=0 in the environment: none."""
    import os
    import subprocess

    if os.environ.get("TTMLIR_TOOL_SERVER") == "0":
        yield None
        return
    socket_path = tmp_path_factory.mktemp("tool-server") / "tools.sock"
    server = subprocess.Popen([sys.executable, "-m", "ttmlir_server", "--socket", str(socket_path),
                               "--idle-timeout", "900"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              start_new_session=True)
    os.environ["TTMLIR_TOOL_SERVER"] = str(socket_path)  # until it listens, the tools run cold
    yield socket_path
    os.environ.pop("TTMLIR_TOOL_SERVER", None)
    server.terminate()
    server.wait()
