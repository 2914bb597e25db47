"""`--ttnn-collect-perf-metrics`: the weight-streaming roofline, the FLOP report and the placement summary of a TTNN
graph, checked against the formulas worked out here by hand."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ttmlir.compiler import lower

PARAM = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
# x @ w (w a parameter: streamed from DRAM) then relu, then @ v (v an input: not a weight, skipped)
MODEL = f"""
func.func @forward(%x: tensor<64x512xbf16>, %w: tensor<512x1024xbf16> {PARAM},
                   %v: tensor<1024x32xbf16>) -> tensor<64x32xbf16> {{
  %0 = "ttir.matmul"(%x, %w) : (tensor<64x512xbf16>, tensor<512x1024xbf16>) -> tensor<64x1024xbf16>
  %1 = "ttir.relu"(%0) : (tensor<64x1024xbf16>) -> tensor<64x1024xbf16>
  %2 = "ttir.matmul"(%1, %v) : (tensor<64x1024xbf16>, tensor<1024x32xbf16>) -> tensor<64x32xbf16>
  return %2 : tensor<64x32xbf16>
}}
"""


def _report(tmp_path, options: str) -> dict:
    out = tmp_path / "m.json"
    lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline",
          f"ttnn-perf-metrics-enabled=true ttnn-perf-metrics-output-file={out} {options}")
    return json.loads(out.read_text())


@pytest.mark.parametrize("trace", [False, True])
def test_roofline_flops_and_summary(tmp_path, trace):
    report = _report(tmp_path, f"enable-trace={str(trace).lower()}")
    targets = report["perf_targets"]
    weight_bytes = round(512 * 1024 * 17 / 16)  # BFP8: 17 bytes per 16 scalars
    dram_us = weight_bytes / 288e9 * 1e6
    compute_us = (64 // 32) * (512 // 32) * (1024 // 32) * 32 / (64 * 1e9) * 1e6  # HiFi2 tile products, 64 cores
    assert (targets["params_count"], targets["params_memory_bytes"]) == (512 * 1024, weight_bytes)
    assert (targets["dram_bound_ops"], targets["compute_bound_ops"], targets["skipped_ops"]) == (1, 0, 1)
    assert targets["roofline_ms"] == pytest.approx(max(dram_us, compute_us) / 1000)
    assert targets["top_perf_estimate_ms"] == pytest.approx(targets["roofline_ms"] / 0.7)
    flops = report["flops"]
    assert flops["total_flops"] == 2 * 64 * 512 * 1024 + 2 * 64 * 1024 * 32
    assert [op["math_fidelity"] for op in flops["per_op"]] == ["hifi4", "hifi4"]  # the pipeline's compute config
    assert flops["peak_flops_per_sec"] == flops["peak_flops_per_sec_by_fidelity"]["hifi4"] == 64 * 1e9 * 2 * 32 ** 3 / 64
    summary = report["summary"]
    assert summary["total_shardable_ops"] == summary["dram_spilled_ops"] >= 3 and summary["sharded_ops"] == 0
    assert report["operation_type_breakdown"]["ttnn.matmul"] == 2
    # traced, the counted function is the trace's: it holds the copy into the output slot
    assert ("ttnn.copy" in report["operation_type_breakdown"]) == trace


def test_refusals_are_located_errors(tmp_path):
    two = MODEL + MODEL.replace("@forward", "@other")
    path = tmp_path / "two.mlir"
    path.write_text(two)
    run = subprocess.run([Path(sys.executable).parent / "ttmlir-opt", str(path), "--ttir-to-ttnn-backend-pipeline",
                          f"--ttnn-collect-perf-metrics=ttnn-perf-metrics-output-file={tmp_path}/r.json"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "expected exactly one outer forward-device function" in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "r.json").exists()
