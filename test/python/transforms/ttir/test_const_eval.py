"""Const-eval: subgraphs of parameters and constants hoisted into `*_const_eval_N` functions whose results are
computed once and cached — by the runtime across `ttrt run --loops`, by generated Python and C++ across calls."""

import csv
import json

import pytest
import torch

from ttmlir.compiler import compile_ttir, lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc

PARAM = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
# relu(x @ permute(w) + b * s): permute(w) and b * s depend on parameters and constants only
MODEL = f"""
func.func @forward(%x: tensor<32x64xbf16> {{ttcore.argument_type = #ttcore.argument_type<input>}},
                   %w: tensor<32x64xbf16> {PARAM}, %b: tensor<1x32xbf16> {PARAM},
                   %s: tensor<1x32xbf16> {{ttcore.argument_type = #ttcore.argument_type<constant>}}) -> tensor<32x32xbf16> {{
  %wt = "ttir.permute"(%w) <{{permutation = array<i64: 1, 0>}}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
  %bs = "ttir.multiply"(%b, %s) : (tensor<1x32xbf16>, tensor<1x32xbf16>) -> tensor<1x32xbf16>
  %0 = "ttir.matmul"(%x, %wt) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.add"(%0, %bs) : (tensor<32x32xbf16>, tensor<1x32xbf16>) -> tensor<32x32xbf16>
  %2 = "ttir.relu"(%1) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %2 : tensor<32x32xbf16>
}}
"""
# on by default, with the subgraphs on the host CPU: these tests keep them on the device
CONST_EVAL = "enable-cpu-hoisted-const-eval=false"
NO_CONST_EVAL = "enable-const-eval=false"


def inputs():
    g = torch.Generator().manual_seed(0)
    return [torch.randn(s, generator=g).to(torch.bfloat16) for s in ((32, 64), (32, 64), (1, 32), (1, 32))]


def test_hoisted_functions_and_load_cached():
    from ttmlir.asm import print_module

    text = print_module(lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline", CONST_EVAL))
    assert 'func.func private @forward_const_eval_1' in text and 'tt.function_type = "const_eval"' in text
    # two unconnected subgraphs, two functions
    assert "ttcore.load_cached(@forward_const_eval_0, [%arg1])" in text
    assert "ttcore.load_cached(@forward_const_eval_1, [%arg2, %arg3])" in text
    forward = text[text.index("func.func @forward"):]
    assert '"ttnn.permute"' not in forward and '"ttnn.multiply"' not in forward


def test_results_equal_the_uncached_program_and_torch():
    x, w, b, s = inputs()
    expected = torch.relu(x.float() @ w.float().T + b.float() * s.float())
    outputs = {}
    on_cpu = ""  # the default
    for options in (NO_CONST_EVAL, CONST_EVAL, on_cpu):
        binary = Binary(data=compile_ttir(MODEL, pipeline_options=options))
        index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
        device = MeshDevice()
        for _ in range(3):  # the cached results of the first run serve the next ones
            (out,), ctx = run_program(binary, index, [x, w, b, s], device)
            outputs.setdefault(options, []).append(out.data.float())
        assert ctx.const_eval_hits == (0 if options == NO_CONST_EVAL else 2)  # both functions served from the cache
    # on the device, const-eval computes what the forward would have; on the CPU it computes in f32
    assert all(torch.equal(o, outputs[NO_CONST_EVAL][0]) for runs in (outputs[NO_CONST_EVAL], outputs[CONST_EVAL])
               for o in runs)
    assert pcc(expected, outputs[CONST_EVAL][0]) > 0.99 and pcc(expected, outputs[on_cpu][2]) > 0.99


def test_updated_parameter_misses_the_cache():
    x, w, b, s = inputs()
    binary = Binary(data=compile_ttir(MODEL, pipeline_options=CONST_EVAL))
    index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
    device = MeshDevice()
    (first,), _ = run_program(binary, index, [x, w, b, s], device)
    first = first.data.clone()
    b.mul_(2)  # an in-place update bumps the tensor's version: the const-eval function runs again
    (second,), ctx = run_program(binary, index, [x, w, b, s], device)
    assert ctx.const_eval_hits == 1 and not torch.equal(first, second.data)  # permute(w) still cached


def test_perf_report_shows_const_eval_ops_once_across_loops(tmp_path):
    from ttrt.common.api import API

    (tmp_path / "m.ttnn").write_bytes(compile_ttir(MODEL, pipeline_options=CONST_EVAL))
    API.initialize_apis()
    code, _ = API.Perf(args={"binary": str(tmp_path / "m.ttnn"), "--loops": 3, "--artifact-dir": str(tmp_path / "a"),
                             "--result-file": str(tmp_path / "perf.json")})()
    assert code == 0
    with open(tmp_path / "a" / "m.ttnn" / "perf" / "ops_perf_results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    loop_of = lambda row: json.loads(row["PROGRAM_METADATA"])["loop"]
    const_eval = [(r["OP CODE"], loop_of(r)) for r in rows if r["CONST_EVAL_OP"] == "true"]
    assert {op for op, _ in const_eval} >= {"ttnn.permute", "ttnn.multiply"}
    assert {loop for _, loop in const_eval} == {0}
    assert sorted({loop_of(r) for r in rows if r["OP CODE"] == "ttnn.load_cached"}) == [0, 1, 2]


@pytest.mark.parametrize("target", ["emitpy", "emitc"])
def test_generated_code_caches_and_equals_the_flatbuffer(tmp_path, target):
    from ttrt.common.api import API

    if target == "emitpy":
        from ttmlir.target.python import translate_to_python as translate
        pipeline, source = "ttir-to-emitpy-pipeline", tmp_path / "m.py"
    else:
        from ttmlir.target.host_cpp import translate_to_cpp as translate
        pipeline, source = "ttir-to-emitc-pipeline", tmp_path / "m.cpp"
    code = translate(lower(MODEL, "<test>", pipeline, CONST_EVAL))
    assert "forward_const_eval_0" in code
    source.write_text(code)
    (tmp_path / "m.ttnn").write_bytes(compile_ttir(MODEL, pipeline_options=CONST_EVAL))
    run = API.EmitPy if target == "emitpy" else API.EmitC
    _, (result,) = run(args={"binary": str(source), "--flatbuffer": str(tmp_path / "m.ttnn"), "--loops": 3,
                             "--result-file": str(tmp_path / "r.json"), "--artifact-dir": str(tmp_path / "a")})()
    assert result["result"] == "pass", result["exception"]
    ops = [loop["ops"] for loop in result["program_results"]["program_index_0"].values()]
    assert ops[0] > ops[1] == ops[2]  # the const-eval ops ran in the first call only
