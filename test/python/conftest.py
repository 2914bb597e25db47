import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # helpers the tests share (ttir_eval), wherever a test sits


def pytest_collection_modifyitems(items):
    """Grouped tests first (the tt-run launches: minutes of one xdist worker's time), so the rest spread over the
    workers around them instead of one worker running them alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)


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
def tool_server():
    """The command-line tools the tests start, served warm (tools/ttmlir_server), as lit's suite has them: a test
    that must start them cold sets TTMLIR_TOOL_SERVER itself. TTMLIR_TOOL_SERVER=0 in the environment: none."""
    import os

    from ttmlir_server import ENVIRONMENT, start_server

    if os.environ.get(ENVIRONMENT) == "0":
        yield None
        return
    socket_path, stop = start_server(sys.executable, idle_timeout=900)
    os.environ[ENVIRONMENT] = socket_path
    yield socket_path
    os.environ.pop(ENVIRONMENT, None)
    stop()
