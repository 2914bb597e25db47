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
