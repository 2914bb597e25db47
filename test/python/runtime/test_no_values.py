"""Runs without values: memory reports and modelled time of graphs larger than this machine, and the checks
that stop a run with values before it spends host memory it cannot have."""

import csv
import json
from pathlib import Path

import pytest

from ttmlir.compiler import compile_ttir
from ttmlir.runtime import session
from ttrt.common.api import API

ROOT = Path(__file__).resolve().parents[3]
MLP = (ROOT / "examples" / "mlp.mlir").read_text()
GiB = 2**30


def chain(shape: str, ops: int, inputs: int = 1) -> str:
    """A graph of `ops` eltwise ops over `shape` tensors, each op also reading input `i % inputs`."""
    t = f"tensor<{shape}>"
    args = ", ".join(f"%in{i}: {t}" for i in range(inputs))
    body, previous = [], "%in0"
    for i in range(ops):
        body.append(f'  %{i} = "ttir.add"({previous}, %in{i % inputs}) : ({t}, {t}) -> {t}' if i % 2 == 0 else
                    f'  %{i} = "ttir.exp"({previous}) : ({t}) -> {t}')
        previous = f"%{i}"
    return f"func.func @chain({args}) -> {t} {{\n" + "\n".join(body) + f"\n  return {previous} : {t}\n}}\n"


def run(tmp_path: Path, binary: bytes, *, command: str = "run", **args) -> tuple[int, list[dict]]:
    path = tmp_path / "model.ttnn"
    path.write_bytes(binary)
    API.initialize_apis()
    flags = {"--" + k.replace("_", "-"): v for k, v in args.items()}
    return API.registered_apis[command](args={"binary": str(path), "--result-file": str(tmp_path / "r.json"),
                                              "--artifact-dir": str(tmp_path / "a"), **flags})()


def test_a_graph_of_more_than_32_gb_is_profiled_without_values(tmp_path):
    """17 tensors of 2 GiB (bf16 32768x32768): 34 GiB in all, 6 GiB live at most on the chip's 12 GiB of DRAM."""
    code, results = run(tmp_path, compile_ttir(chain("32768x32768xbf16", 16)), no_values=True, memory=True,
                        save_artifacts=True)
    assert code == 0, results
    report = json.loads((tmp_path / "a" / "model.ttnn" / "memory_results.json").read_text())
    dram_in_use = [entry["dram"]["total_bytes_allocated_per_bank"] * 12 for entry in report.values()]
    assert len(report) == 16 + 15  # every op and every deallocation (the last result is returned), as with values
    assert 6 * GiB <= max(dram_in_use) < 6.01 * GiB
    device_ns = results[0]["program_results"]["program_index_0"]["loop_0"]["total_device_kernel_duration_ns"]
    assert device_ns > 0


def test_without_values_memory_and_modelled_time_are_those_of_a_run_with_values(tmp_path):
    binary = compile_ttir(MLP)
    figures = []
    for no_values in (False, True):
        code, results = run(tmp_path, binary, command="perf", no_values=no_values)
        assert code == 0, results
        with open(next((tmp_path / "a").rglob("ops_perf_results.csv")), newline="") as report:
            figures.append([(row["OP CODE"], row["DEVICE KERNEL DURATION [ns]"], row["OUTPUT_0_Y"], row["OUTPUT_0_X"])
                            for row in csv.DictReader(report)])
    assert figures[0] == figures[1] and len(figures[0]) > 5


def test_a_run_larger_than_host_memory_is_refused_before_spending_it(tmp_path, monkeypatch):
    monkeypatch.setattr(session, "host_memory_available", lambda: GiB)
    code, results = run(tmp_path, compile_ttir(chain("16384x16384xf32", 2)))
    assert code == 1
    message = results[0]["exception"]
    assert message.startswith("program 0 ('chain') needs about ")
    assert "of host memory for its values, more than the 1.0 GiB this machine has available; --no-values" in message


def test_inputs_the_device_cannot_hold_are_refused_before_values_are_made(tmp_path):
    """Four 4 GiB f32 inputs for a chip with 12 GiB of DRAM: the device's out-of-memory error, not the host's."""
    code, results = run(tmp_path, compile_ttir(chain("32768x32768xf32", 3, inputs=4)))
    assert code == 1
    assert results[0]["exception"].startswith("out of memory: program 'chain' input 2 needs ")


def test_an_op_the_device_cannot_hold_is_named_with_its_location_before_values_are_made(tmp_path):
    t, big = "tensor<16384x32768xf32>", "tensor<131072x32768xf32>"
    text = f"""func.func @grow(%x: {t}) -> {big} {{
  %0 = "ttir.repeat"(%x) <{{repeat_dimensions = array<i64: 8, 1>}}> : ({t}) -> {big} loc("model.py:7:repeat")
  return %0 : {big}
}}
"""
    code, results = run(tmp_path, compile_ttir(text))
    assert code == 1
    assert results[0]["exception"].startswith("'ttnn.repeat' at loc(\"model.py:7:repeat\"): out of memory: ")
