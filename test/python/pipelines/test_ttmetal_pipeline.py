"""TTIR through `--ttir-to-ttmetal-pipeline` and `--ttmetal-to-flatbuffer`, run from the `.ttm` on the simulated
grid, against the TTIR goldens (written independently of the simulator's tile math)."""

import pytest
import torch

from golden.mapping import BINARY_GOLDENS, UNARY_GOLDENS
from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.dialects.ttcore_alignments import compute_grid_aware_dim_alignments, physical_shape
from ttmlir.passes import PassFailure, make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

POSITIVE_ONLY = {"log", "sqrt", "rsqrt", "reciprocal", "pow", "div"}
TORCH = {"f32": torch.float32, "bf16": torch.bfloat16, "i32": torch.int32}


def compile_ttir(text: str, options: str = "") -> bytes:
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", options).apply(ctx, module)
    return translate(module)


def computing(stats: list, options: str, moves: int, results: int = 1) -> list:
    """The launches that compute: host data crosses row-major, so each move of an argument into L1 (one per op
    reading it) is tilized by a launch of its own first and each L1 result untilized by one last."""
    first = 0 if "default-input-memspace=dram" in options else moves
    return stats[first:len(stats) - (0 if "default-output-memspace=dram" in options else results)]


def eltwise(op: str, shape: tuple[int, ...], dtype: str, arity: int) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    args = ", ".join(f"%arg{i}: {t}" for i in range(arity))
    uses = ", ".join(f"%arg{i}" for i in range(arity))
    return (f"func.func @f({args}) -> {t} {{\n  %0 = \"ttir.{op}\"({uses}) : ({', '.join([t] * arity)}) -> {t}\n"
            f"  return %0 : {t}\n}}\n")


def inputs(op: str, shape, dtype: str, arity: int, seed: int = 0) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    if dtype == "i32":
        return [torch.randint(-50, 50, shape, generator=generator).float() for _ in range(arity)]
    values = [torch.randn(shape, generator=generator) for _ in range(arity)]
    if op in POSITIVE_ONLY:
        values = [v.abs() + 0.5 for v in values]
    return [v.to(TORCH[dtype]).float() for v in values]


def check(actual: torch.Tensor, expected: torch.Tensor, dtype: str) -> None:
    """Values alike (an integer result, int32, compared as floats)."""
    actual, expected = actual.float(), expected.to(TORCH[dtype]).float()
    if dtype == "bf16":
        assert torch.allclose(actual, expected, rtol=2e-2, atol=2e-2)
    else:
        assert torch.allclose(actual, expected, rtol=1e-5, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "div", "maximum", "minimum", "pow", "lt", "le", "gt",
                                "eq"])
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_binary(op, dtype):
    xs = inputs(op, (96, 64), dtype, 2)
    (out,), stats = run_program(compile_ttir(eltwise(op, (96, 64), dtype, 2)), xs)
    check(out, BINARY_GOLDENS[op](*xs), dtype)
    assert stats[0].cores == 6  # 3x2 tiles: the largest grid dividing them


@pytest.mark.parametrize("op", ["exp", "log", "sqrt", "rsqrt", "reciprocal", "abs", "neg", "relu", "sigmoid", "tanh",
                                "sin", "cos", "ceil", "floor", "logical_not"])
def test_unary_f32(op):
    xs = inputs(op, (64, 128), "f32", 1)
    (out,), _ = run_program(compile_ttir(eltwise(op, (64, 128), "f32", 1)), xs)
    check(out, UNARY_GOLDENS[op](*xs), "f32")


@pytest.mark.parametrize("op", ["abs", "logical_not"])
def test_unary_i32(op):
    xs = inputs(op, (32, 64), "i32", 1)
    (out,), _ = run_program(compile_ttir(eltwise(op, (32, 64), "i32", 1)), xs)
    assert torch.equal(out, UNARY_GOLDENS[op](xs[0]).float())


def test_shapes_not_in_whole_tiles_are_padded_and_leading_dims_fold_into_rows():
    xs = inputs("add", (3, 11, 50), "f32", 2)
    (out,), _ = run_program(compile_ttir(eltwise("add", (3, 11, 50), "f32", 2)), xs)
    assert out.shape == (3, 11, 50) and torch.equal(out, xs[0] + xs[1])


def test_a_chain_of_ops_feeds_each_result_to_the_next():
    t = "tensor<64x64xf32>"
    text = (f"func.func @f(%a: {t}, %b: {t}) -> {t} {{\n"
            f"  %0 = \"ttir.multiply\"(%a, %b) : ({t}, {t}) -> {t}\n"
            f"  %1 = \"ttir.exp\"(%0) : ({t}) -> {t}\n"
            f"  %2 = \"ttir.subtract\"(%1, %a) : ({t}, {t}) -> {t}\n"
            f"  return %2 : {t}\n}}\n")
    a, b = inputs("add", (64, 64), "f32", 2)
    (out,), stats = run_program(compile_ttir(text), [a, b])
    assert torch.allclose(out, torch.exp(a * b) - a, rtol=1e-5, atol=1e-5)
    assert len(computing(stats, "", 3)) == 3  # %a moved for the multiply and the subtract


@pytest.mark.parametrize("inputs_in, outputs_in", [("dram", "dram"), ("dram", "l1"), ("l1", "dram")])
def test_dram_interleaved_tensors_are_read_and_written_over_the_noc(inputs_in, outputs_in):
    t = "tensor<2x40x100xbf16>"
    text = (f"func.func @f(%a: {t}, %b: {t}) -> {t} {{\n"
            f"  %0 = \"ttir.add\"(%a, %b) : ({t}, {t}) -> {t}\n"
            f"  %1 = \"ttir.sigmoid\"(%0) : ({t}) -> {t}\n"
            f"  return %1 : {t}\n}}\n")
    a, b = inputs("add", (2, 40, 100), "bf16", 2)
    options = f"default-input-memspace={inputs_in} default-output-memspace={outputs_in}"
    (out,), stats = run_program(compile_ttir(text, options), [a, b])
    check(out, torch.sigmoid((a + b).bfloat16().float()), "bf16")
    add, sigmoid = computing(stats, options, 2)
    assert (add.noc_bytes > 0) == (inputs_in == "dram") and (sigmoid.noc_bytes > 0) == (outputs_in == "dram")


@pytest.mark.parametrize("shape, dtype, options", [
    ((512, 256), "f32", ""), ((40, 100), "bf16", ""), ((96, 64), "f32", "default-input-memspace=dram"),
    ((64, 160), "bf16", "mock-system-desc-arch=blackhole default-output-memspace=dram")])
def test_transpose_gathers_each_tile_from_the_core_or_page_holding_it(shape, dtype, options):
    source = f"tensor<{shape[0]}x{shape[1]}x{dtype}>"
    result = f"tensor<{shape[1]}x{shape[0]}x{dtype}>"
    text = (f"func.func @t(%a: {source}) -> {result} {{\n"
            f"  %0 = \"ttir.transpose\"(%a) <{{dim0 = -2 : si32, dim1 = -1 : si32}}> : ({source}) -> {result}\n"
            f"  return %0 : {result}\n}}\n")
    (x,) = inputs("transpose", shape, dtype, 1)
    (out,), stats = run_program(compile_ttir(text, options), [x])
    assert torch.equal(out, x.T)
    (transpose,) = computing(stats, options, 1)
    assert transpose.noc_bytes > 0


@pytest.mark.parametrize("m, k, n, dtype, options, transpose_b", [
    (128, 96, 64, "f32", "use-tile-matmul=true", False), (256, 256, 256, "bf16", "use-tile-matmul=true", False),
    (40, 70, 50, "f32", "use-tile-matmul=true default-input-memspace=dram", False),
    (96, 64, 320, "bf16", "use-tile-matmul=true mock-system-desc-arch=blackhole default-output-memspace=dram", False),
    (128, 96, 64, "f32", "", False), (128, 96, 64, "f32", "", True), (256, 256, 256, "bf16", "", False),
    (64, 128, 320, "bf16", "default-input-memspace=dram", True)])
def test_matmul_multicasts_operand_blocks_and_accumulates_in_dst(m, k, n, dtype, options, transpose_b):
    ta, tb, tc = (f"tensor<{r}x{c}x{dtype}>" for r, c in ((m, k), (n, k) if transpose_b else (k, n), (m, n)))
    flags = " <{transpose_b = true}>" if transpose_b else ""
    text = (f"func.func @mm(%a: {ta}, %b: {tb}) -> {tc} {{\n"
            f"  %0 = \"ttir.matmul\"(%a, %b){flags} : ({ta}, {tb}) -> {tc}\n"
            f"  %1 = \"ttir.relu\"(%0) : ({tc}) -> {tc}\n"
            f"  return %1 : {tc}\n}}\n")
    generator = torch.Generator().manual_seed(9)
    a, b = (torch.randn(shape, generator=generator).to(TORCH[dtype]).float()
            for shape in ((m, k), (n, k) if transpose_b else (k, n)))
    binary = compile_ttir(text, options)
    assert b"noc0.async_write_multicast" in binary and b"noc1.async_write_multicast" in binary  # kernel C++ text
    (out,), stats = run_program(binary, [a, b], exact=dtype == "f32")  # f32: the products as f32 computes them
    expected = torch.relu(a @ (b.T if transpose_b else b))
    if dtype == "bf16":  # bf16 operands, a 16-bit dst accumulating in bf16
        assert torch.nn.functional.cosine_similarity(out.flatten(), expected.flatten(), 0) > 0.999
    else:
        assert torch.allclose(out, expected, rtol=1e-4, atol=1e-4)
    # each output tile once (the output padded at its end to whole tiles per core of the device grid's dims)
    grid = (10, 13) if "blackhole" in options else (8, 8)
    rows, cols = physical_shape((m, n), compute_grid_aware_dim_alignments((m, n), grid, [(0, 1), (1, 2)]),
                                [(0, 1), (1, 2)])
    assert computing(stats, options, 2)[0].tiles_computed == rows // 32 * cols // 32 * -(-k // 32)


@pytest.mark.parametrize("contract_rhs", [0, 1])
def test_a_dot_general_that_is_a_matmul_runs_as_one(contract_rhs):
    shape_b = (96, 160) if contract_rhs == 0 else (160, 96)
    text = (f"func.func @dg(%a: tensor<64x96xf32>, %b: tensor<{shape_b[0]}x{shape_b[1]}xf32>) -> tensor<64x160xf32> {{\n"
            f"  %0 = \"ttir.dot_general\"(%a, %b) <{{batch_dims_lhs = array<i64>, batch_dims_rhs = array<i64>, "
            f"contract_dims_lhs = array<i64: 1>, contract_dims_rhs = array<i64: {contract_rhs}>}}> : "
            f"(tensor<64x96xf32>, tensor<{shape_b[0]}x{shape_b[1]}xf32>) -> tensor<64x160xf32>\n"
            f"  return %0 : tensor<64x160xf32>\n}}\n")
    generator = torch.Generator().manual_seed(3)
    a, b = torch.randn(64, 96, generator=generator), torch.randn(*shape_b, generator=generator)
    (out,), _ = run_program(compile_ttir(text), [a, b], exact=True)
    assert torch.allclose(out, a @ (b if contract_rhs == 0 else b.T), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype, value, expected", [
    ("f32", "dense<5.0>", torch.full((32, 64), 5.0)),
    ("bf16", "dense<[[1.5, -2.0]]>", torch.tensor([[1.5, -2.0]]).repeat(32, 32)),
])
def test_constants_are_host_data_written_to_the_device(dtype, value, expected):
    t = f"tensor<32x64x{dtype}>"
    if "[[" in value:  # a non-splat constant: one row of two values, tiled by the test's expectation
        value = "dense<" + str([[1.5, -2.0] * 32] * 32).replace(" ", "") + ">"
    text = (f"func.func @f(%a: {t}) -> {t} {{\n"
            f"  %0 = \"ttir.constant\"() <{{value = {value} : {t}}}> : () -> {t}\n"
            f"  %1 = \"ttir.multiply\"(%a, %0) : ({t}, {t}) -> {t}\n"
            f"  return %1 : {t}\n}}\n")
    (a,) = inputs("multiply", (32, 64), dtype, 1)
    (out,), _ = run_program(compile_ttir(text), [a])
    check(out, a * expected, dtype)


@pytest.mark.parametrize("op, shape, dim, dtype, options", [
    ("sum", (64, 96), 1, "f32", ""), ("mean", (96, 64), 0, "f32", ""), ("max", (64, 128), -1, "bf16", ""),
    ("max", (128, 64), -2, "f32", "default-input-memspace=dram"), ("sum", (2, 40, 50), 2, "f32", ""),
    ("mean", (40, 300), 1, "bf16", "mock-system-desc-arch=blackhole default-output-memspace=dram"),
    ("sum", (127, 97), 0, "f32", ""), ("min", (64, 96), 1, "f32", ""), ("min", (96, 64), 0, "bf16", ""),
    ("min", (2, 64, 32), -1, "f32", "default-input-memspace=dram")])
def test_reductions_reduce_streamed_tiles_with_a_scaler(op, shape, dim, dtype, options):
    out_shape = list(shape)
    out_shape[dim] = 1
    ti, to = (f"tensor<{'x'.join(map(str, s))}x{dtype}>" for s in (shape, out_shape))
    text = (f"func.func @r(%a: {ti}) -> {to} {{\n"
            f"  %0 = \"ttir.{op}\"(%a) <{{dim_arg = [{dim} : i32], keep_dim = true}}> : ({ti}) -> {to}\n"
            f"  return %0 : {to}\n}}\n")
    (x,) = inputs(op, shape, dtype, 1)
    (out,), stats = run_program(compile_ttir(text, options), [x])
    expected = {"sum": torch.sum, "mean": torch.mean, "max": torch.amax, "min": torch.amin}[op](x, dim, keepdim=True)
    assert out.shape == expected.shape
    if dtype == "bf16":
        assert torch.allclose(out, expected, rtol=2e-2, atol=5e-2)
    else:
        assert torch.allclose(out, expected, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("source, target", [("f32", "bf16"), ("bf16", "f32")])
def test_typecast_is_done_by_the_packer(source, target):
    ti, to = f"tensor<64x96x{source}>", f"tensor<64x96x{target}>"
    text = (f"func.func @c(%a: {ti}) -> {to} {{\n"
            f"  %0 = \"ttir.typecast\"(%a) : ({ti}) -> {to}\n"
            f"  return %0 : {to}\n}}\n")
    (x,) = inputs("typecast", (64, 96), source, 1)
    (out,), _ = run_program(compile_ttir(text), [x])
    assert torch.equal(out, x.to(TORCH[target]).float())


@pytest.mark.parametrize("op, shape, other, dtype, options", [
    ("add", (64, 128), (1, 128), "f32", ""), ("multiply", (64, 128), (64, 1), "f32", ""),
    ("subtract", (96, 64), (1, 1), "bf16", ""), ("add", (40, 70), (1, 70), "bf16", "default-input-memspace=dram"),
    ("maximum", (128, 96), (128, 1), "f32", "mock-system-desc-arch=blackhole")])
def test_broadcast_operands_are_gathered_and_spread_by_unary_bcast(op, shape, other, dtype, options):
    ta, tb = (f"tensor<{s[0]}x{s[1]}x{dtype}>" for s in (shape, other))
    text = (f"func.func @b(%a: {ta}, %b: {tb}) -> {ta} {{\n"
            f"  %0 = \"ttir.{op}\"(%a, %b) : ({ta}, {tb}) -> {ta}\n"
            f"  return %0 : {ta}\n}}\n")
    generator = torch.Generator().manual_seed(12)
    a, b = (torch.randn(s, generator=generator).to(TORCH[dtype]).float() for s in (shape, other))
    (out,), _ = run_program(compile_ttir(text, options), [a, b])
    check(out, BINARY_GOLDENS[op](a, b), dtype)


@pytest.mark.parametrize("shapes, dtype, options", [
    (((64, 64), (64, 64), (1, 64)), "f32", ""), (((1, 1), (64, 96), (64, 96)), "bf16", ""),
    (((64, 1), (1, 96), (64, 96)), "f32", "enable-elementwise-fusion=true"),
    (((64, 96), (64, 96), (64, 96)), "i32", "default-input-memspace=dram")])
def test_where_selects_in_dst_with_broadcast_operands_spread(shapes, dtype, options):
    """where(c, exp(a), b): each operand copied (or spread) into a dst slot of its own, where_tile choosing; fused,
    the exp is computed in the where's program."""
    element = "si32" if dtype == "i32" else dtype
    out = tuple(max(d) for d in zip(*shapes))
    t = {s: f"tensor<{s[0]}x{s[1]}x{element}>" for s in (*shapes, out)}
    c, a, b = shapes
    unary = "abs" if dtype == "i32" else "exp"
    text = (f"func.func @w(%c: {t[c]}, %a: {t[a]}, %b: {t[b]}) -> {t[out]} {{\n"
            f"  %0 = \"ttir.{unary}\"(%a) : ({t[a]}) -> {t[a]}\n"
            f"  %1 = \"ttir.where\"(%c, %0, %b) : ({t[c]}, {t[a]}, {t[b]}) -> {t[out]}\n"
            f"  return %1 : {t[out]}\n}}\n")
    generator = torch.Generator().manual_seed(5)
    cond = (torch.randn(c, generator=generator) > 0).float()
    x, y = (inputs("add", s, dtype, 1, seed)[0] for s, seed in ((a, 1), (b, 2)))
    (result,), stats = run_program(compile_ttir(text, options), [cond, x, y])
    check(result, torch.where(cond != 0, UNARY_GOLDENS[unary](x), y).expand(out), dtype)
    assert len(computing(stats, options, 3)) == (1 if options.startswith("enable") else 2)


def test_blackhole_grid():
    xs = inputs("multiply", (32 * 10, 32 * 13), "bf16", 2)
    binary = compile_ttir(eltwise("multiply", (320, 416), "bf16", 2), "mock-system-desc-arch=blackhole")
    (out,), stats = run_program(binary, xs)
    check(out, xs[0] * xs[1], "bf16")
    assert stats[0].cores == 130  # the whole 10x13 Blackhole worker grid


def test_override_device_shape_limits_the_grid():
    xs = inputs("add", (96, 64), "f32", 2)
    (out,), stats = run_program(compile_ttir(eltwise("add", (96, 64), "f32", 2), "override-device-shape=1,1"), xs)
    assert stats[0].cores == 1 and torch.equal(out, xs[0] + xs[1])


@pytest.mark.parametrize("text, options, message", [
    (eltwise("add", (64, 64), "f32", 2), "default-input-memspace=system", "default-input-memspace is l1 or dram"),
    ("func.func @c(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {\n  %0 = \"ttir.cumsum\"(%a) <{dim = 1 : i64}> : "
     "(tensor<64x64xf32>) -> tensor<64x64xf32>\n  return %0 : tensor<64x64xf32>\n}\n", "",
     "'ttir.cumsum' is not converted to D2M yet"),
    (eltwise("add", (64, 64), "ui16", 2), "", "a tensor of ui16 is not converted to D2M yet"),
    ("func.func @m(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> tensor<64x64xf32> {\n  %0 = \"ttir.matmul\"(%a, "
     "%b) <{transpose_b = true}> : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x64xf32>\n  return %0 : "
     "tensor<64x64xf32>\n}\n", "use-tile-matmul=true", "transpose_b is only supported by tile_matmul_block"),
])
def test_what_is_not_lowered_yet_is_refused_naming_it(text, options, message):
    with pytest.raises(PassFailure, match=message):
        compile_ttir(text, options)


FUSED = """func.func @f(%x: tensor<64x96x{t}>, %y: tensor<64x96x{t}>, %r: tensor<1x96x{t}>) -> tensor<64x96x{t}> {{
  %0 = "ttir.neg"(%x) : (tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %1 = "ttir.exp"(%0) : (tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %2 = "ttir.multiply"(%x, %y) : (tensor<64x96x{t}>, tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %3 = "ttir.add"(%2, %r) : (tensor<64x96x{t}>, tensor<1x96x{t}>) -> tensor<64x96x{t}>
  %4 = "ttir.lt"(%1, %3) : (tensor<64x96x{t}>, tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %5 = "ttir.div"(%3, %1) : (tensor<64x96x{t}>, tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %6 = "ttir.add"(%4, %5) : (tensor<64x96x{t}>, tensor<64x96x{t}>) -> tensor<64x96x{t}>
  return %6 : tensor<64x96x{t}>
}}
"""


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_elementwise_fusion_computes_a_graph_in_one_program(dtype):
    """exp(-x) and x * y + r (a row broadcast) are each used twice, so each is a program of its own (two ops
    fused), and the rest is a third: 3 programs where unfused there are 7."""
    generator = torch.Generator().manual_seed(4)
    x, y, r = (torch.randn(*s, generator=generator).to(TORCH[dtype]).float() for s in ((64, 96), (64, 96), (1, 96)))
    e, s = torch.exp(-x), x * y + r
    expected = (e < s).float() + s / e
    fused, fused_stats = run_program(compile_ttir(FUSED.format(t=dtype), "enable-elementwise-fusion=true"), [x, y, r])
    alone, alone_stats = run_program(compile_ttir(FUSED.format(t=dtype)), [x, y, r])
    moves = 4  # x moved for the neg and the multiply
    assert (len(computing(fused_stats, "", moves)), len(computing(alone_stats, "", moves))) == (3, 7)
    for out in (fused[0], alone[0]):
        assert torch.nn.functional.cosine_similarity(out.flatten(), expected.flatten(), 0) > 0.999


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_broadcast_producers_fuse_into_the_op_that_spreads_them(dtype):
    """A column (32x1 + 1x1) and a row (1x1 + 1x32) each computed once per output tile inside the 32x32 add that
    broadcasts them: one program where unfused there are three."""
    t = {s: f"tensor<{s}x{dtype}>" for s in ("32x1", "1x32", "1x1", "32x32")}
    text = (f"func.func @b(%c: {t['32x1']}, %r: {t['1x32']}, %s: {t['1x1']}) -> {t['32x32']} {{\n"
            f"  %0 = \"ttir.add\"(%s, %r) : ({t['1x1']}, {t['1x32']}) -> {t['1x32']}\n"
            f"  %1 = \"ttir.multiply\"(%c, %s) : ({t['32x1']}, {t['1x1']}) -> {t['32x1']}\n"
            f"  %2 = \"ttir.subtract\"(%1, %0) : ({t['32x1']}, {t['1x32']}) -> {t['32x32']}\n"
            f"  return %2 : {t['32x32']}\n}}\n")
    generator = torch.Generator().manual_seed(9)
    c, r, s = (torch.randn(*shape, generator=generator).to(TORCH[dtype]).float() for shape in ((32, 1), (1, 32), (1, 1)))
    (fused,), fused_stats = run_program(compile_ttir(text, "enable-elementwise-fusion=true"), [c, r, s])
    (alone,), alone_stats = run_program(compile_ttir(text), [c, r, s])
    moves = 4  # s moved for the add and the multiply
    assert (len(computing(fused_stats, "", moves)), len(computing(alone_stats, "", moves))) == (1, 3)
    expected = (c * s) - (s + r)
    for out in (fused, alone):
        check(out, expected, dtype)


def test_a_fused_tree_deeper_than_dst_is_split_into_programs():
    """x = -a0, then x = x + exp(ai) for 11 more inputs: fusing each producer before its consumer's ops lays the
    exps out first, so a fused kernel running its body in order would hold them all in dst at once, more than the
    math thread's 8 tiles: the graph is split into programs. A chain a0 + (a1 + (...)) holds two tiles at a time
    and is one program."""
    t = "tensor<32x32xf32>"
    body, last = [f"  %x0 = \"ttir.neg\"(%a0) : ({t}) -> {t}"], "%x0"
    for i in range(1, 12):
        body.append(f"  %e{i} = \"ttir.exp\"(%a{i}) : ({t}) -> {t}")
        body.append(f"  %x{i} = \"ttir.add\"({last}, %e{i}) : ({t}, {t}) -> {t}")
        last = f"%x{i}"
    args = ", ".join(f"%a{i}: {t}" for i in range(12))
    text = f"func.func @wide({args}) -> {t} {{\n" + "\n".join(body) + f"\n  return {last} : {t}\n}}\n"
    xs = [torch.randn(32, 32) * 0.5 for _ in range(12)]
    (out,), stats = run_program(compile_ttir(text, "enable-elementwise-fusion=true"), xs)
    expected = -xs[0] + sum(torch.exp(x) for x in xs[1:])
    assert torch.allclose(out, expected, rtol=1e-3, atol=1e-3) and 1 < len(computing(stats, "", 12)) < 23
    chain, last = [], "%a11"
    for i in range(10, -1, -1):
        chain.append(f"  %c{i} = \"ttir.add\"(%a{i}, {last}) : ({t}, {t}) -> {t}")
        last = f"%c{i}"
    text = f"func.func @deep({args}) -> {t} {{\n" + "\n".join(chain) + f"\n  return %c0 : {t}\n}}\n"
    (out,), stats = run_program(compile_ttir(text, "enable-elementwise-fusion=true"), xs)
    assert torch.allclose(out, sum(xs), atol=1e-5) and len(computing(stats, "", 12)) == 1


COSH = """func.func @cosh(%x: tensor<64x96x{t}>, %y: tensor<64x96x{t}>) -> tensor<64x96x{t}> {{
  %0 = "ttir.neg"(%x) : (tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %1 = "ttir.exp"(%0) : (tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %2 = "ttir.exp"(%x) : (tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %3 = "ttir.div"(%2, %1) : (tensor<64x96x{t}>, tensor<64x96x{t}>) -> tensor<64x96x{t}>
  %4 = "ttir.subtract"(%3, %y) : (tensor<64x96x{t}>, tensor<64x96x{t}>) -> tensor<64x96x{t}>
  return %4 : tensor<64x96x{t}>
}}
"""


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_a_fused_kernel_computing_in_body_order_matches_torch(dtype):
    """exp(x) / exp(-x) - y in one program: the kernel computes -x and its exp before exp(x), as the fused body
    orders them, the division's operands in the slots they were computed in."""
    generator = torch.Generator().manual_seed(11)
    x, y = (torch.randn(64, 96, generator=generator).to(TORCH[dtype]).float() for _ in range(2))
    (out,), stats = run_program(compile_ttir(COSH.format(t=dtype), "enable-elementwise-fusion=true"), [x, y])
    assert len(computing(stats, "", 3)) == 1  # x moved for the neg and the exp
    check(out, torch.exp(x) / torch.exp(-x) - y, dtype)


def test_tensors_made_by_full_ones_and_arange_are_host_constants_on_the_device():
    text = """func.func @a() -> (tensor<2x40xf32>, tensor<3x64xbf16>, tensor<32x32xsi32>) {
  %0 = "ttir.arange"() <{arange_dimension = 1 : i64, end = 80 : si64, start = 0 : si64, step = 2 : si64}> : () -> tensor<2x40xf32>
  %1 = "ttir.full"() <{shape = array<i32: 3, 64>, fill_value = 2.5 : f32}> : () -> tensor<3x64xbf16>
  %2 = "ttir.ones"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xsi32>
  %3 = "ttir.sqrt"(%0) : (tensor<2x40xf32>) -> tensor<2x40xf32>
  return %3, %1, %2 : tensor<2x40xf32>, tensor<3x64xbf16>, tensor<32x32xsi32>
}
"""
    (rooted, full, ones), _ = run_program(compile_ttir(text), [])
    assert torch.allclose(rooted, torch.sqrt(torch.arange(0, 80, 2).float()).repeat(2, 1), atol=1e-5)
    assert torch.equal(full, torch.full((3, 64), 2.5)) and torch.equal(ones, torch.ones(32, 32))


def test_host_data_not_in_whole_tiles_is_staged_in_a_padded_host_buffer():
    t = "tensor<9x43x7xf32>"
    text = (f"func.func @f(%a: {t}) -> {t} {{\n  %c = \"ttir.constant\"() <{{value = dense<5.0> : {t}}}> : () -> {t}\n"
            f"  %0 = \"ttir.add\"(%a, %c) : ({t}, {t}) -> {t}\n  return %0 : {t}\n}}\n")
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", "").apply(ctx, module)
    lowered = str(module)
    assert lowered.count("host_layout<logical_shape = 9x43x7, host_strides = 2048x32x1, host_volume = 18432>") >= 3
    assert lowered.count("memref.copy") == 3  # the input and the constant in, the result out
    x = torch.randn(9, 43, 7)
    (out,), _ = run_program(translate(module), [x])
    assert torch.allclose(out, x + 5)


@pytest.mark.parametrize("program", [
    eltwise("abs", (64, 128), "f32", 1),
    "func.func @mm(%a: tensor<64x96xf32>, %b: tensor<96x64xf32>) -> tensor<64x64xf32> {\n  %0 = \"ttir.matmul\"(%a, %b)"
    " : (tensor<64x96xf32>, tensor<96x64xf32>) -> tensor<64x64xf32>\n  %1 = \"ttir.sum\"(%0) <{dim_arg = [1 : i32], "
    "keep_dim = true}> : (tensor<64x64xf32>) -> tensor<64x1xf32>\n  return %1 : tensor<64x1xf32>\n}\n"])
def test_tensor_accessor_dma_moves_dram_pages_through_tensor_accessors(program):
    """use-tensor-accessor-dma: kernels take CB ports and addresses as common runtime args and read or write
    each DRAM buffer's pages by id through a TensorAccessor described by a compile-time arg; same answers."""
    options = "default-input-memspace=dram default-output-memspace=dram"
    ctx = make_context()
    module, _ = parse_text(ctx, program)
    make_pass("ttir-to-ttmetal-pipeline", options + " use-tensor-accessor-dma=true").apply(ctx, module)
    text = str(module)
    assert "<tensor_accessor_args[0]>" in text and "get_common_arg_val" in text and "page_id_0" in text
    assert "dram_ep" not in text  # no DRAM transfer addressed by bank
    generator = torch.Generator().manual_seed(2)
    xs = [torch.randn(*s, generator=generator) for s in ((64, 128),)] if "abs" in program else \
        [torch.randn(64, 96, generator=generator), torch.randn(96, 64, generator=generator)]
    (through_accessors,), _ = run_program(translate(module), xs, exact=True)
    (plain,), _ = run_program(compile_ttir(program, options), xs, exact=True)
    expected = torch.abs(xs[0]) if "abs" in program else (xs[0] @ xs[1]).sum(1, keepdim=True)
    assert torch.allclose(through_accessors, plain) and torch.allclose(plain, expected, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("shape, dtype", [((3, 32, 64), "f32"), ((2, 4, 64, 96), "bf16"), ((16, 64, 64), "f32")])
def test_tensors_kept_at_their_rank_are_staged_row_major_and_tilized_on_device(shape, dtype):
    """collapse-tensors-2d=false: each matrix of the batch on its own rows of cores (16 matrices of 2x2 tiles make a
    16x2 virtual grid, laid onto 4x8 cores), host data written row-major and tilized by a program, the result
    untilized by one before it is read."""
    text = eltwise("add", shape, dtype, 2)
    binary = compile_ttir(text, "collapse-tensors-2d=false")
    a, b = inputs("add", shape, dtype, 2, seed=5)
    (y,), stats = run_program(binary, [a, b])
    check(y, (a + b).to(TORCH[dtype]).float(), dtype)
    assert len(stats) == 4  # tilize, tilize, add, untilize
    module = make_context()
    parsed, _ = parse_text(module, text)
    make_pass("ttir-to-ttmetal-pipeline", "collapse-tensors-2d=false").apply(module, parsed)
    buffers = [op.results[0].type for op in parsed.walk() if op.name == "ttmetal.create_buffer"]
    assert buffers and all(len(t.get_shape()) == 2 * len(shape) for t in buffers)  # a grid dim and a shard dim each
    assert {str(t.element_type) for t in buffers} == {f"!ttcore.tile<32x32, {dtype}>", dtype}  # tiles, and staging
    collapsed, _ = parse_text(module, text)
    make_pass("ttir-to-ttmetal-pipeline", "").apply(module, collapsed)  # the default: leading dims fold into rows
    assert {len(op.results[0].type.get_shape()) for op in collapsed.walk() if op.name == "ttmetal.create_buffer"} == {4}


def test_a_wide_block_matmul_computes_runs_of_as_many_output_tiles_as_dst_holds(monkeypatch):
    # on one core the output is 2x12 tiles: dst holds 4 f32 accumulators, and 4 divides the row, so each
    # experimental::matmul_block computes 4 output tiles (ct_dim 4), not one
    from ttmlir.runtime.metal import kernel_api

    widths = []
    block = kernel_api.KernelApi.matmul_block

    def recorded(self, *args):
        widths.append(int(args[6]))  # ct_dim
        return block(self, *args)

    monkeypatch.setattr(kernel_api.KernelApi, "matmul_block", recorded)
    a, b, c = "tensor<64x128xbf16>", "tensor<128x384xbf16>", "tensor<64x384xbf16>"
    text = f'func.func @mm(%a: {a}, %b: {b}) -> {c} {{\n  %0 = "ttir.matmul"(%a, %b) : ({a}, {b}) -> {c}\n  return %0 : {c}\n}}\n'
    g = torch.Generator().manual_seed(5)
    x, y = torch.randn(64, 128, generator=g).bfloat16(), torch.randn(128, 384, generator=g).bfloat16()
    (out,), _ = run_program(compile_ttir(text, "override-device-shape=1,1"), [x, y])
    assert set(widths) == {4} and len(widths) == 2 * 12 // 4
    assert torch.allclose(out.float(), x.float() @ y.float(), rtol=2e-2, atol=0.5)
