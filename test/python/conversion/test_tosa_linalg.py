"""TOSA in (`--convert-tosa-to-ttir`) and TTIR out to Linalg (`--convert-ttir-to-linalg`), with the host executor
that runs the Linalg: each TTIR op lowered to Linalg and run by numpy must give what its torch golden gives."""

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from ttmlir.asm import parse_text, print_module
from ttmlir.compiler import compile_ttir
from ttmlir.dialects import make_context
from ttmlir.errors import PassFailure
from ttmlir.passes import make_pass
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc
from ttmlir.runtime.host_linalg import HostExecutionError, run_function
from ttrt.common.api import API

ROOT = Path(__file__).resolve().parents[3]
TOSA_MLP = (ROOT / "examples" / "tosa_mlp.mlir").read_text()


def convert(text: str, *passes: str):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    module.verify()
    for name in passes:
        make_pass(name, "").apply(ctx, module)
    module.verify()
    return module


def mlp_reference(x, w1, b1, w2, b2):
    hidden = np.clip(x @ w1 + b1, 0, 6)
    logits = hidden @ w2 + b2
    return logits, logits.sum(axis=2, keepdims=True)


def mlp_inputs(seed=0):
    rng = np.random.default_rng(seed)
    shapes = [(1, 32, 64), (1, 64, 128), (1, 1, 128), (1, 128, 16), (1, 1, 16)]
    return [(rng.standard_normal(s) * 0.3).astype(np.float32) for s in shapes]


def test_tosa_mlp_runs_through_ttrt_and_matches_its_reference(tmp_path):
    """The hand-written TOSA MLP, lowered to TTIR then TTNN, run by `ttrt run`: its goldens are the numpy
    reference, checked at the logits and the row sums."""
    ttir = print_module(convert(TOSA_MLP, "convert-tosa-to-ttir"), debuginfo=True)  # the goldens key on locations
    inputs = mlp_inputs()
    logits, rows = mlp_reference(*inputs)
    goldens = {f"input_{i}": x for i, x in enumerate(inputs)}
    goldens.update({'loc("tosa_mlp.logits")': logits, 'loc("tosa_mlp.row_sum")': rows})
    path = tmp_path / "tosa_mlp.ttnn"
    path.write_bytes(compile_ttir(ttir, goldens={"tosa_mlp": goldens}))
    API.initialize_apis()
    code, results = API.Run(args={"binary": str(path), "--result-file": str(tmp_path / "r.json"),
                                  "--artifact-dir": str(tmp_path / "a"), "--save-artifacts": True})()
    assert code == 0, results
    report = json.loads((tmp_path / "a" / "tosa_mlp.ttnn" / "golden_results.json").read_text())
    assert report['loc("tosa_mlp.logits")']["actual_pcc"] > 0.99
    assert report['loc("tosa_mlp.row_sum")']["actual_pcc"] > 0.99


def test_a_tflite_model_lowered_to_tosa_by_tensorflow_runs_and_matches_tensorflow():
    """TOSA as an MLIR front end writes it (TensorFlow's TFLite legalization, TOSA before 1.0), read in its 1.0
    form, lowered to TTIR then TTNN and run on the simulated device: the output is TensorFlow's own."""
    module = convert((ROOT / "examples" / "tflite_mlp_tosa.mlir").read_text(), "convert-tosa-to-ttir")
    io = np.load(ROOT / "examples" / "tflite_mlp_io.npz")
    binary = Binary(data=compile_ttir(print_module(module)))
    outputs, _ = run_program(binary, 0, [torch.from_numpy(io["x"])], MeshDevice())
    assert pcc(outputs[0].data.float(), torch.from_numpy(io["y"])) > 0.999
    np.testing.assert_allclose(outputs[0].data.float().numpy(), io["y"], atol=0.05)


def test_a_tosa_conv2d_computes_torchs_convolution_on_the_device():
    """OHWI weights, per-channel bias, uneven pads, strides and dilations: TTIR's conv2d computes TOSA's."""
    module = convert((ROOT / "test" / "lit" / "Conversion" / "TosaToTTIR" / "conv2d.mlir").read_text(),
                     "convert-tosa-to-ttir")
    rng = np.random.default_rng(0)
    x, w, b = (torch.from_numpy(rng.standard_normal(s).astype(np.float32)) for s in ((1, 10, 8, 4), (8, 3, 2, 4), (8,)))
    outputs, _ = run_program(Binary(data=compile_ttir(print_module(module))), 0, [x, w, b], MeshDevice(), exact=True)
    padded = torch.nn.functional.pad(x.permute(0, 3, 1, 2), (0, 1, 1, 2))  # left, right, top, bottom
    reference = torch.nn.functional.conv2d(padded, w.permute(0, 3, 1, 2), b, stride=(2, 1), dilation=(1, 2))
    torch.testing.assert_close(outputs[0].data.float(), reference.permute(0, 2, 3, 1), rtol=1e-5, atol=1e-5)


def test_pre_1_0_tosa_is_read_in_its_1_0_form():
    """The older TOSA forms become 1.0's: sizes as `tosa.const_shape` operands, zero points and the shift as
    constant operands, renamed attributes; quantization info, which 1.0 has no form for, is refused."""
    text = """func.func @f(%x: tensor<2x6xf32>, %w: tensor<1x6x3xf32>) -> tensor<3x2xf32> {
  %p = "tosa.const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %r = "tosa.reshape"(%x) {new_shape = array<i64: 1, 2, 6>} : (tensor<2x6xf32>) -> tensor<1x2x6xf32>
  %m = "tosa.matmul"(%r, %w) : (tensor<1x2x6xf32>, tensor<1x6x3xf32>) -> tensor<1x2x3xf32>
  %s = "tosa.slice"(%m) {start = array<i64: 0, 0, 0>, size = array<i64: 1, 2, 3>} : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %q = "tosa.reshape"(%s) {new_shape = array<i64: 2, 3>} : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
  %c = "tosa.clamp"(%q) {min_fp = -1.0 : f32, max_fp = 1.0 : f32, min_int = -1 : i64, max_int = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = "tosa.negate"(%c) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %k = "tosa.mul"(%n, %c) {shift = 0 : i8} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = "tosa.transpose"(%k, %p) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}"""
    printed = print_module(convert(text))
    assert printed.count("tosa.const_shape") == 4 and "perms = array<i32: 1, 0>" in printed
    assert "{max_val = 1.000000e+00 : f32, min_val = -1.000000e+00 : f32}" in printed
    assert printed.count("\"tosa.const\"") == 6  # the perms; zero points of matmul and negate; the shift
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((2, 6)).astype(np.float32), rng.standard_normal((1, 6, 3)).astype(np.float32)
    (direct,) = run_function(convert(text), [x, w])
    c = np.clip((x @ w[0]), -1, 1)
    np.testing.assert_allclose(direct, (-c * c).T, rtol=1e-5, atol=1e-6)
    quantized = text.replace('{shift = 0 : i8}', '{shift = 0 : i8, quantization_info = 1 : i32}')
    with pytest.raises(Exception, match="pre-1.0 quantization_info"):
        convert(quantized)


def test_tosa_mlp_on_the_host_executor_through_ttir_and_linalg():
    """TOSA -> TTIR -> Linalg run by numpy: the second CPU executor agrees with the reference."""
    module = convert(TOSA_MLP, "convert-tosa-to-ttir", "convert-ttir-to-linalg")
    assert not [op for op in module.walk() if op.name.startswith("ttir.")]
    inputs = mlp_inputs(1)
    got = run_function(module, inputs)
    for value, expected in zip(got, mlp_reference(*inputs)):
        np.testing.assert_allclose(value, expected, rtol=1e-4, atol=1e-4)


def test_shifted_multiply_is_a_located_error():
    text = """func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}"""
    with pytest.raises(PassFailure, match="'tosa.mul' op conversion does not support shifted multiply") as caught:
        convert(text, "convert-tosa-to-ttir")
    assert caught.value.op.name == "tosa.mul"


@pytest.mark.parametrize("op, message", [
    ("tosa.add %a, %c : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>",
     "operands don't have broadcast-compatible shapes"),
    ("tosa.reduce_sum %a {axis = 2 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>",
     "expect input tensor rank (2) to be larger than reduce axis (2)"),
    ("tosa.transpose %a {perms = array<i32: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>",
     "expected valid permutation indices"),
    ("tosa.clamp %a {min_val = 1 : i32, max_val = 2 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>",
     "min/max attributes types are incompatible with input/output element types"),
])
def test_tosa_verifiers_speak_tosa(op, message):
    text = f"""func.func @f(%a: tensor<2x3xf32>, %c: tensor<3x3xf32>) -> () {{
  %0 = {op}
  return
}}"""
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    with pytest.raises(Exception, match=message.replace("(", r"\(").replace(")", r"\)")):
        module.verify()


def test_tosa_prints_as_mlir_reads_it():
    text = """func.func @f(%a: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = tosa.reduce_max %a {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}"""
    printed = print_module(convert(text))
    assert "tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>" in printed
    assert print_module(convert(printed)) == printed


# ---------------------------------------------------------------------------------------------------------------
# TTIR -> Linalg, run on the host, against the TTIR goldens (torch)

def _t(shape, dtype="f32"):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>" if shape else f"tensor<{dtype}>"


CASES = [
    # (op text with %a/%b/%c, input shapes, result type)
    ('"ttir.add"(%a, %b)', [(4, 8), (1, 8)], _t((4, 8))),
    ('"ttir.multiply"(%a, %b)', [(4, 1), (1, 8)], _t((4, 8))),
    ('"ttir.div"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.remainder"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.atan2"(%a, %b)', [(4, 8), (1, 8)], _t((4, 8))),
    ('"ttir.gt"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.le"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.ne"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.logical_xor"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.maximum"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.relu"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.gelu"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.gelu_bw"(%a, %b)', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.gelu_bw"(%a, %b) <{approximate = "tanh"}>', [(4, 8), (4, 8)], _t((4, 8))),
    ('"ttir.mish"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.sign"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.hardsigmoid"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.leaky_relu"(%a) <{parameter = 0.1 : f32}>', [(4, 8)], _t((4, 8))),
    ('"ttir.isfinite"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.erfc"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.log1p"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.sqrt"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.silu"(%a)', [(4, 8)], _t((4, 8))),
    ('"ttir.clamp_scalar"(%a) <{min = -0.5 : f32, max = 0.5 : f32}>', [(4, 8)], _t((4, 8))),
    ('"ttir.softmax"(%a) <{dimension = -1 : si32}>', [(4, 8)], _t((4, 8))),
    ('"ttir.layer_norm"(%a, %b, %c) <{normalized_shape = array<i64: 8>, epsilon = 1.0e-05 : f32, '
     'operandSegmentSizes = array<i32: 1, 1, 1>}>', [(4, 8), (8,), (8,)], _t((4, 8))),
    ('"ttir.sum"(%a) <{dim_arg = [0 : i32, 2 : i32], keep_dim = false}>', [(2, 3, 4)], _t((3,))),
    ('"ttir.mean"(%a) <{dim_arg = [1 : i32], keep_dim = true}>', [(2, 3, 4)], _t((2, 1, 4))),
    ('"ttir.max"(%a) <{dim_arg = [-1 : i32], keep_dim = true}>', [(2, 3, 4)], _t((2, 3, 1))),
    ('"ttir.prod"(%a) <{dim_arg = [1 : i32], keep_dim = false}>', [(2, 3, 4)], _t((2, 4))),
    ('"ttir.argmax"(%a) <{dim_arg = [1 : i32], keep_dim = false}>', [(4, 8)], _t((4,), "i32")),
    ('"ttir.argmax"(%a) <{keep_dim = false}>', [(4, 8)], _t((), "i32")),
    ('"ttir.cumsum"(%a) <{dim = 1 : i64}>', [(3, 5)], _t((3, 5))),
    ('"ttir.matmul"(%a, %b)', [(2, 4, 8), (8, 3)], _t((2, 4, 3))),
    ('"ttir.linear"(%a, %b, %c)', [(4, 8), (8, 3), (3,)], _t((4, 3))),
    ('"ttir.transpose"(%a) <{dim0 = -1 : si32, dim1 = 0 : si32}>', [(2, 3, 4)], _t((4, 3, 2))),
    ('"ttir.permute"(%a) <{permutation = array<i64: 1, 2, 0>}>', [(2, 3, 4)], _t((3, 4, 2))),
    ('"ttir.repeat"(%a) <{repeat_dimensions = array<i64: 2, 3>}>', [(2, 3)], _t((4, 9))),
    ('"ttir.concat"(%a, %b) <{dim = 1 : si32}>', [(2, 3), (2, 5)], _t((2, 8))),
    ('"ttir.pad"(%a) <{padding = array<i32: 1, 0, 2, 1>, value = 1.5 : f32}>', [(2, 3)], _t((3, 6))),
    ('"ttir.slice_static"(%a) <{begins = [0 : i32, 1 : i32], ends = [2 : i32, 5 : i32], '
     'step = [1 : i32, 2 : i32]}>', [(2, 6)], _t((2, 2))),
    ('"ttir.concatenate_heads"(%a)', [(1, 2, 3, 4)], _t((1, 3, 8))),
    ('"ttir.max_pool2d"(%a) <{kernel = array<i32: 3, 3>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, '
     'padding = array<i32: 1, 1, 1, 1>, ceil_mode = true}>', [(1, 8, 8, 3)], _t((1, 5, 5, 3))),
    ('"ttir.avg_pool2d"(%a) <{kernel = array<i32: 3, 3>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>, '
     'padding = array<i32: 1, 1, 1, 1>, ceil_mode = false, count_include_pad = false}>', [(1, 8, 8, 3)],
     _t((1, 4, 4, 3))),
    ('"ttir.global_avg_pool2d"(%a)', [(2, 4, 4, 3)], _t((2, 1, 1, 3))),
    ('"ttir.conv2d"(%a, %b, %c) <{stride = 2 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}>',
     [(1, 8, 8, 3), (4, 3, 3, 3), (1, 1, 1, 4)], _t((1, 4, 4, 4))),
]


def _run_golden(op, inputs):
    from golden.mapping import GOLDEN_MAPPINGS, attributes
    names = {v: i for i, v in enumerate(op.parent_block().args)}
    by_name = {name: ([torch.from_numpy(inputs[names[v]]) for v in values] if len(values) != 1 else
                      torch.from_numpy(inputs[names[values[0]]])) if values else None
               for name, values in op.operand_groups().items()}
    out = GOLDEN_MAPPINGS[op.ROW.name](by_name, attributes(op))
    return out[0] if isinstance(out, tuple) else out


@pytest.mark.parametrize("text, shapes, result", CASES, ids=[c[0].split('"')[1] + f"_{i}" for i, c in
                                                             enumerate(CASES)])
def test_ttir_lowered_to_linalg_computes_the_golden(text, shapes, result):
    names = "abc"[:len(shapes)]
    signature = ", ".join(f"%{n}: {_t(s)}" for n, s in zip(names, shapes))
    types_ = ", ".join(_t(s) for s in shapes)
    module_text = f"""func.func @f({signature}) -> {result} {{
  %0 = {text} : ({types_}) -> {result}
  return %0 : {result}
}}"""
    rng = np.random.default_rng(7)
    inputs = [(rng.standard_normal(s) + (0.1 if "remainder" in text or "div" in text else 0)).astype(np.float32)
              for s in shapes]
    ttir = convert(module_text)
    op = next(o for o in ttir.walk() if o.name.startswith("ttir."))
    expected = _run_golden(op, inputs)
    lowered = convert(module_text, "convert-ttir-to-linalg")
    assert not [o for o in lowered.walk() if o.name.startswith("ttir.")]
    (got,) = run_function(lowered, inputs)
    np.testing.assert_allclose(got, expected.numpy().astype(got.dtype), rtol=2e-4, atol=2e-4)


def test_an_op_without_a_lowering_is_a_located_error():
    text = """func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "ttir.cumprod"(%a) <{dim = 0 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}"""
    with pytest.raises(PassFailure, match="failed to legalize operation 'ttir.cumprod'"):
        convert(text, "convert-ttir-to-linalg")


def test_the_host_executor_names_an_op_it_cannot_run():
    module = convert("""func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "ttir.abs"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}""")
    with pytest.raises(HostExecutionError, match="'ttir.abs' .* has no host kernel"):
        run_function(module, [np.ones(4, np.float32)])


def test_a_tosa_graph_gives_the_same_values_run_directly_and_through_ttir_and_linalg():
    """The host executor runs TOSA itself; through TTIR and back to TOSA/Linalg the values must not change
    (pool padding order, slice ends, pad constants, zero points)."""
    text = """func.func @g(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.avg_pool2d %x, %zp, %zp {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, acc_type = f32} : (tensor<1x8x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  %m = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  %sum = tosa.add %a, %m : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 4, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %sum, %start, %size : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x2xf32>
  %p = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 0, 1, 1]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pc = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q = tosa.pad %s, %p, %pc : (tensor<1x4x4x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
  %e = tosa.erf %q : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %e : tensor<1x4x4x4xf32>
}"""
    x = np.random.default_rng(3).standard_normal((1, 8, 8, 3)).astype(np.float32)
    (direct,) = run_function(convert(text), [x])
    (lowered,) = run_function(convert(text, "convert-tosa-to-ttir", "convert-ttir-to-linalg"), [x])
    np.testing.assert_allclose(lowered, direct, rtol=1e-5, atol=1e-6)
