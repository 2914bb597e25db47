"""Trace hoisting (`enable-trace`): a forward function's device ops run from a trace captured on the first call and
replayed on the later ones, giving the untraced program's results for every call, at a lower modelled time."""

import csv
import json
import re

import pytest
import torch

from ttmlir.compiler import compile_ttir, lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc

PARAM = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
# gelu(relu(x @ w1 + b1) @ w2): x comes from the host on every call, the weights stay on the device
MODEL = f"""
func.func @forward(%x: tensor<32x64xbf16> {{ttcore.argument_type = #ttcore.argument_type<input>}},
                   %w1: tensor<64x64xbf16> {PARAM}, %b1: tensor<1x64xbf16> {PARAM},
                   %w2: tensor<64x32xbf16> {PARAM}) -> tensor<32x32xbf16> {{
  %0 = "ttir.matmul"(%x, %w1) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.add"(%0, %b1) : (tensor<32x64xbf16>, tensor<1x64xbf16>) -> tensor<32x64xbf16>
  %2 = "ttir.relu"(%1) : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %3 = "ttir.matmul"(%2, %w2) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %4 = "ttir.gelu"(%3) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %4 : tensor<32x32xbf16>
}}
"""
TRACE = "enable-trace=true"


def weights():
    g = torch.Generator().manual_seed(0)
    return [(torch.randn(s, generator=g) * 0.2).to(torch.bfloat16) for s in ((64, 64), (1, 64), (64, 32))]


def expected(x, w1, b1, w2):
    return torch.nn.functional.gelu(torch.relu(x.float() @ w1.float() + b1.float()) @ w2.float())


def test_forward_keeps_one_trace_op():
    from ttmlir.asm import print_module

    text = print_module(lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline", TRACE))
    for name, kind in (("trace_0_forward", "trace_main"), ("allocate_slots_trace_0_forward", "trace_allocate_slots"),
                       ("run_and_capture_trace_0_forward", "trace_run_and_capture"),
                       ("execute_trace_0_forward", "trace_execute")):
        head = text[text.index(f"func.func private @{name}("):]
        assert f'tt.function_type = "{kind}"' in head[:head.index("{\n")]
    forward = text[text.index("func.func @forward"):]
    assert '"ttnn.capture_or_execute_trace"' in forward and '"ttnn.matmul"' not in forward
    # the weights are their own slots (passed on the device), x is written into a slot from the host
    assert "operandSegmentSizes = array<i32: 1, 4, 0>" in forward
    assert re.search(r'capture_or_execute_trace"\(%\d+, %arg1, %arg2, %arg3, %arg0\)', forward)


@pytest.mark.parametrize("options", ["", "enable-const-eval=true"])
def test_replays_give_the_untraced_results_for_new_inputs(options):
    g = torch.Generator().manual_seed(1)
    xs = [torch.randn(32, 64, generator=g).to(torch.bfloat16) for _ in range(3)]
    params = weights()
    results = {}
    for traced in (False, True):
        binary = Binary(data=compile_ttir(MODEL, pipeline_options=f"{options} enable-trace={str(traced).lower()}"))
        index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
        device = MeshDevice()
        for x in xs:  # the first call captures, the others write x into its slot and replay
            (out,), _ = run_program(binary, index, [x, *params], device)
            results.setdefault(traced, []).append(out.data.clone())
        assert len(device.trace_cache) == int(traced)
    assert all(torch.equal(a, b) for a, b in zip(results[False], results[True]))
    assert not torch.equal(results[True][1], results[True][2])  # each replay read its own input
    assert all(pcc(expected(x, *params), out) > 0.99 for x, out in zip(xs, results[True]))


def _perf_rows(tmp_path, name: str, options: str, loops: int) -> list[dict]:
    from ttrt.common.api import API

    (tmp_path / f"{name}.ttnn").write_bytes(compile_ttir(MODEL, pipeline_options=options))
    API.initialize_apis()
    code, _ = API.Perf(args={"binary": str(tmp_path / f"{name}.ttnn"), "--loops": loops,
                             "--artifact-dir": str(tmp_path / "a"), "--result-file": str(tmp_path / f"{name}.json")})()
    assert code == 0
    with open(tmp_path / "a" / f"{name}.ttnn" / "perf" / "ops_perf_results.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_perf_charges_the_traced_gap_after_the_capture(tmp_path):
    loop_of = lambda row: json.loads(row["PROGRAM_METADATA"])["loop"]
    time = lambda rows, loop: sum(float(r["DEVICE KERNEL DURATION [ns]"] or 0) + float(r["OP TO OP LATENCY [ns]"] or 0)
                                  for r in rows if loop_of(r) == loop)
    traced, untraced = _perf_rows(tmp_path, "t", TRACE, 3), _perf_rows(tmp_path, "u", "", 3)
    replayed = [r for r in traced if loop_of(r) == 2 and r["DEVICE KERNEL DURATION [ns]"]]
    device_ops = {r["OP CODE"] for r in replayed if r["METAL TRACE ID"] == "0"}
    assert device_ops >= {"ttnn.matmul", "ttnn.relu", "ttnn.copy"}  # gelu is fused into the second matmul
    assert all(float(r["OP TO OP LATENCY [ns]"]) == 2050.0 for r in replayed if r["METAL TRACE ID"] == "0")
    # the first call compiles, captures and replays: dearer than an untraced call; a replay is cheaper
    assert time(traced, 0) > time(untraced, 0)
    assert time(traced, 2) < 0.6 * time(untraced, 2)


def test_generated_python_captures_once_and_replays_new_inputs(tmp_path):
    """The EmitPy wrapper allocates and captures on its first call, then writes each call's input into its slot
    and replays: the simulated ttnn gives the untraced flatbuffer's result for every input."""
    import ttnn
    from ttmlir.target.python import translate_to_python
    from ttrt.common.emitpy import generated_code_imports, load

    common = lower(MODEL, "<test>", "ttir-to-ttnn-common-pipeline", TRACE)
    from ttmlir.passes import make_pass
    from xdsl.context import Context
    make_pass("ttnn-common-to-emitpy-pipeline").apply(Context(allow_unregistered=True), common)
    code = translate_to_python(common)
    assert "def capture_or_execute_trace_0_forward(" in code and "ttnn.begin_trace_capture(" in code
    (tmp_path / "m.py").write_text(code)
    binary = Binary(data=compile_ttir(MODEL))
    index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
    params = weights()
    g = torch.Generator().manual_seed(2)
    with generated_code_imports():
        namespace = load(tmp_path / "m.py")
        device = ttnn.open_device(device_id=0)
        ttnn.utils.DeviceGetter.use(device)
        on_device = [ttnn.from_torch(w, layout=ttnn.TILE_LAYOUT, device=device) for w in params]
        for call in range(3):
            x = torch.randn(32, 64, generator=g).to(torch.bfloat16)
            (out,) = namespace["forward"]([ttnn.from_torch(x, layout=ttnn.TILE_LAYOUT), *on_device])
            (want,), _ = run_program(binary, index, [x, *params], MeshDevice())
            assert torch.equal(ttnn.to_torch(out), want.data), f"call {call}"
    traced = [op.name for op, *_ in device.context.perf if op.traced]
    # three replays (the capture's own and one per later call); ops recorded under capture cost nothing
    assert traced.count("matmul") == traced.count("linear") == traced.count("relu") == 3
