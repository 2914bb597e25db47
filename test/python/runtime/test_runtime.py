"""The simulated runtime: numerics per op family against torch, data formats, memory, callbacks, ttrt run."""

import gc
import json
import weakref
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import ttrt.runtime
from ttmlir.compiler import compile_ttir
from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.device import BankAllocator, MeshDevice, OutOfMemory
from ttmlir.runtime.executor import Binary, DebugHooks, release, run_program
from ttmlir.runtime.golden import pcc
from ttmlir.target import flatbuffer as fbu
from ttrt.common.api import API

ROOT = Path(__file__).resolve().parents[3]


def run_ttir(text: str, inputs: list[torch.Tensor], exact: bool = True) -> list[torch.Tensor]:
    """Outputs of a TTIR function; in exact numerics unless asked (these tests check each op's meaning against
    torch in f32; the hardware's arithmetic is test_numerics.py's)."""
    binary = Binary(data=compile_ttir(text))
    outputs, _ = run_program(binary, 0, inputs, MeshDevice(), exact=exact)
    return [t.data for t in outputs]


def ty(shape, dtype="f32"):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def single_op(op: str, in_shapes, out_shape, props: str = "", dtype="f32") -> str:
    args = ", ".join(f"%a{i}: {ty(s, dtype)}" for i, s in enumerate(in_shapes))
    operands = ", ".join(f"%a{i}" for i in range(len(in_shapes)))
    types = ", ".join(ty(s, dtype) for s in in_shapes)
    attrs = f" <{{{props}}}>" if props else ""
    return (f"func.func @f({args}) -> {ty(out_shape, dtype)} {{\n"
            f'  %0 = "ttir.{op}"({operands}){attrs} : ({types}) -> {ty(out_shape, dtype)}\n'
            f"  return %0 : {ty(out_shape, dtype)}\n}}\n")


S = (2, 32, 64)
UNARY = {"abs": torch.abs, "exp": torch.exp, "relu": torch.relu, "gelu": torch.nn.functional.gelu,
         "sigmoid": torch.sigmoid, "tanh": torch.tanh, "neg": torch.neg, "sin": torch.sin, "cos": torch.cos,
         "floor": torch.floor, "sign": torch.sign, "silu": torch.nn.functional.silu, "square": torch.square,
         "erf": torch.erf}
BINARY = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "maximum": torch.maximum,
          "minimum": torch.minimum, "gt": lambda a, b: (a > b).float(), "eq": lambda a, b: (a == b).float()}


@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_torch(name):
    x = torch.randn(S)
    (out,) = run_ttir(single_op(name, [S], S), [x])
    # tanh runs in bf16, as the workaround for tt-metal's accurate tanh makes it
    tolerance = {"rtol": 1e-2, "atol": 1e-2} if name == "tanh" else {"rtol": 1e-5, "atol": 1e-6}
    torch.testing.assert_close(out, UNARY[name](x), **tolerance)


@pytest.mark.parametrize("name", BINARY)
def test_binary_with_broadcast_matches_torch(name):
    a, b = torch.randn(S), torch.randn(1, 1, 64)
    (out,) = run_ttir(single_op(name, [S, (1, 1, 64)], S), [a, b])
    torch.testing.assert_close(out, BINARY[name](a, b))


@pytest.mark.parametrize("name,ref", [("sum", torch.sum), ("mean", torch.mean), ("max", torch.amax)])
def test_reductions_match_torch(name, ref):
    x = torch.randn(S)
    (out,) = run_ttir(single_op(name, [S], (2, 1, 64), "dim_arg = [1 : i32], keep_dim = true"), [x])
    torch.testing.assert_close(out, ref(x, 1, keepdim=True), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("text,inputs,ref", [
    (single_op("reshape", [S], (64, 64), "shape = [64 : i32, 64 : i32]"), [S], lambda x: x.reshape(64, 64)),
    (single_op("permute", [S], (64, 2, 32), "permutation = array<i64: 2, 0, 1>"), [S], lambda x: x.permute(2, 0, 1)),
    (single_op("transpose", [S], (2, 64, 32), "dim0 = 1 : si32, dim1 = 2 : si32"), [S], lambda x: x.transpose(1, 2)),
    (single_op("concat", [S, S], (2, 64, 64), "dim = 1 : si32"), [S, S], lambda a, b: torch.cat([a, b], 1)),
    (single_op("slice_static", [S], (2, 16, 32), "begins = [0 : i32, 0 : i32, 0 : i32], "
               "ends = [2 : i32, 32 : i32, 64 : i32], step = [1 : i32, 2 : i32, 2 : i32]"), [S],
     lambda x: x[:, ::2, ::2]),
    (single_op("softmax", [S], S, "dimension = -1 : si32"), [S], lambda x: torch.softmax(x, -1)),
    (single_op("matmul", [(2, 32, 64), (64, 96)], (2, 32, 96)), [(2, 32, 64), (64, 96)], torch.matmul),
    (single_op("where", [S, S, S], S), [S, S, S], lambda c, a, b: torch.where(c != 0, a, b)),
    (single_op("repeat", [(1, 32, 64)], (4, 32, 128), "repeat_dimensions = array<i64: 4, 1, 2>"), [(1, 32, 64)],
     lambda x: x.repeat(4, 1, 2)),
])
def test_data_movement_and_matmul_match_torch(text, inputs, ref):
    values = [torch.randn(s) for s in inputs]
    (out,) = run_ttir(text, values)
    torch.testing.assert_close(out, ref(*values), rtol=1e-5, atol=1e-5)


def test_bf16_outputs_are_rounded_like_the_hardware():
    x = torch.randn(S)
    (out,) = run_ttir(single_op("exp", [S], S, dtype="bf16"), [x])
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out, torch.exp(x.to(torch.bfloat16).float()).to(torch.bfloat16))


def test_allocator_bookkeeping_and_out_of_memory():
    alloc = BankAllocator("l1", 64, 1024, 16)
    a, b = alloc.allocate(100), alloc.allocate(200)
    assert (a, b) == (0, 112) and alloc.allocated_bytes() == 320
    alloc.free(a)
    alloc.free(b)
    assert alloc.allocated_bytes() == 0 and len(alloc.blocks) == 1
    with pytest.raises(OutOfMemory, match="needs 2048 bytes per bank in l1"):
        alloc.allocate(2048, "huge")


def test_program_leaves_no_memory_allocated_and_oom_names_the_op():
    text = (ROOT / "examples" / "mlp.mlir").read_text()
    binary = Binary(data=compile_ttir(text))
    device = MeshDevice()
    inputs = [torch.randn(list(r.desc.shape)) for r in binary.programs[0].inputs]
    outputs, ctx = run_program(binary, 0, inputs, device)
    assert ctx.peak["dram"] > 0
    assert all(t.on_device for t in outputs)  # a program returns device tensors, as TTNN's do
    release(binary.programs[0], ctx, outputs)  # frees them and the inputs: the intermediates are already free
    assert device.allocated_bytes()["dram"] == 0
    matmul = next(op.type for op in binary.programs[0].operations if fbu.op_name(op) == "linear")
    matmul.out.desc.layout.memoryConfig.bufferType = fbu.enum_value(fbu.fb.BufferType, "l1")
    matmul.out.size = 200 * 1024 * 1024
    with pytest.raises(RuntimeFailure, match=r"'ttnn.linear' at loc\(\"mlp.fc1_bias\"\): out of memory: .* in l1"):
        run_program(binary, 0, inputs, MeshDevice())


def test_a_program_frees_the_values_of_the_intermediates_it_deallocates():
    """The run's log (ctx.perf, for the perf report) keeps each op's tensor descriptions, not their values: a
    deallocated intermediate's values are freed when the program deallocates it, not when the run's context goes
    (holding them all ran a decode layer's check out of memory)."""
    binary = Binary(data=compile_ttir((ROOT / "examples" / "mlp.mlir").read_text()))
    made = []

    def post(b, program_context, op_context):
        out = ttrt.runtime.get_op_output_tensor(op_context, program_context)
        if out is not None and op_context.name not in ("get_device", "deallocate"):
            made.append((op_context.name, weakref.ref(out.data)))

    DebugHooks.get(None, post)
    try:
        outputs, ctx = run_program(binary, 0, [torch.randn(list(r.desc.shape)) for r in binary.programs[0].inputs],
                                   MeshDevice())
    finally:
        DebugHooks.clear()
    gc.collect()
    returned = {id(t.data) for t in outputs}
    alive = [name for name, ref in made if ref() is not None and id(ref()) not in returned]
    assert len(made) > len(outputs) and not alive, alive
    rows = [t for op, *_ in ctx.perf for t in (*op.inputs, *op.outputs) if hasattr(t, "data")]
    assert rows and all(t.data.is_meta for t in rows)  # what the perf report reads: shapes, formats, placement
    assert all(t.shape for op, *_ in ctx.perf for t in op.outputs if op.name == "linear")


def test_callbacks_run_in_order_with_op_context():
    binary = Binary(data=compile_ttir((ROOT / "examples" / "mlp.mlir").read_text()))
    events = []

    def pre(b, program_context, op_context):
        events.append(("pre", op_context.name, ttrt.runtime.get_op_output_tensor(op_context, program_context)))

    def post(b, program_context, op_context):
        out = ttrt.runtime.get_op_output_tensor(op_context, program_context)
        events.append(("post", op_context.name, out))
        if op_context.name == "relu":
            assert ttrt.runtime.get_op_loc_info(op_context) == 'loc("mlp.relu")'
            assert '"ttnn.relu"' in ttrt.runtime.get_op_debug_str(op_context)
            assert ttrt.runtime.get_tensor_shape(out) == [32, 256]

    ttrt.runtime.DebugHooks.get(pre, post)
    try:
        run_program(binary, 0, [torch.randn(list(r.desc.shape)) for r in binary.programs[0].inputs], MeshDevice())
    finally:
        DebugHooks.clear()
    ops = binary.programs[0].operations
    assert [e[:2] for e in events] == [(k, fbu.op_name(op)) for op in ops for k in ("pre", "post")]
    assert all(e[2] is None for e in events if e[0] == "pre")
    assert all(e[2] is not None for e in events if e[0] == "post" and e[1] not in ("get_device", "deallocate"))


def mlp_reference(x, w1, b1, w2, b2):
    return torch.softmax(torch.relu(x @ w1 + b1) @ w2 + b2, 1)


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_mnist_mlp_end_to_end_matches_torch(dtype):
    text = (ROOT / "examples" / "mlp.mlir").read_text().replace("xf32>", f"x{dtype}>")
    shapes = [(32, 784), (784, 256), (1, 256), (256, 10), (1, 10)]
    inputs = [torch.randn(s) * 0.1 for s in shapes]
    (out,) = run_ttir(text, inputs)
    assert pcc(mlp_reference(*inputs), out.float()) >= 0.99


def test_attention_end_to_end_matches_torch():
    text = (ROOT / "examples" / "attention.mlir").read_text()
    x, wq, wk, wv = (torch.randn(s) * 0.2 for s in [(1, 128, 64), (64, 64), (64, 64), (64, 64)])
    scale = torch.full((1, 1, 1), 0.125)
    (out,) = run_ttir(text, [x, wq, wk, wv, scale])
    probs = torch.softmax((x @ wq) @ (x @ wk).transpose(-2, -1) * 0.125, -1)
    assert pcc(probs @ (x @ wv), out.float()) >= 0.99


def write_mlp(tmp_path: Path, goldens: dict | None = None) -> Path:
    path = tmp_path / "mlp.ttnn"
    path.write_bytes(compile_ttir((ROOT / "examples" / "mlp.mlir").read_text(), goldens=goldens))
    return path


def run_api(tmp_path, **args):
    API.initialize_apis()
    args = {k if k == "binary" else "--" + k.replace("_", "-"): v for k, v in args.items()}
    return API.Run(args={"--result-file": str(tmp_path / "run_results.json"),
                         "--artifact-dir": str(tmp_path / "artifacts"), **args})()


def test_ttrt_run_with_goldens_memory_and_artifacts(tmp_path):
    inputs = [torch.randn(s) for s in [(32, 784), (784, 256), (1, 256), (256, 10), (1, 10)]]
    goldens = {f"input_{i}": t.numpy() for i, t in enumerate(inputs)}
    goldens['loc("mlp.softmax")'] = mlp_reference(*inputs).numpy()
    path = write_mlp(tmp_path, {"mlp": goldens})
    code, results = run_api(tmp_path, binary=str(path), save_artifacts=True, memory=True, check_memory_leak=True,
                            loops=2)
    assert code == 0, results
    assert set(results[0]["program_results"]["program_index_0"]) == {"loop_0", "loop_1"}
    folder = tmp_path / "artifacts" / "mlp.ttnn"
    report = json.loads((folder / "golden_results.json").read_text())
    assert report['loc("mlp.softmax")']["actual_pcc"] > 0.999
    memory = json.loads((folder / "memory_results.json").read_text())
    assert memory["0"]["dram"]["num_banks"] == 12 and memory["0"]["l1"]["num_banks"] == 64
    assert torch.equal(torch.load(folder / "program_0" / "input_0.pt"), inputs[0])


def test_ttrt_run_fails_on_a_wrong_golden(tmp_path):
    path = write_mlp(tmp_path, {"mlp": {'loc("mlp.relu")': -np.ones((32, 256), dtype=np.float32)}})
    code, results = run_api(tmp_path, binary=str(path))
    assert code == 1 and "golden check failed" in results[0]["exception"]
    assert run_api(tmp_path, binary=str(path), disable_golden=True)[0] == 0


def test_ttrt_run_says_whether_it_checked_goldens(tmp_path, capsys):
    """A bare PASS means values were checked; a run with nothing to check them against says so."""
    assert run_api(tmp_path, binary=str(write_mlp(tmp_path)))[0] == 0
    assert "mlp.ttnn: PASS (ran; no goldens in the binary)," in capsys.readouterr().out
    inputs = [torch.randn(s) for s in [(32, 784), (784, 256), (1, 256), (256, 10), (1, 10)]]
    goldens = {f"input_{i}": t.numpy() for i, t in enumerate(inputs)}
    path = write_mlp(tmp_path, {"mlp": {**goldens, 'loc("mlp.softmax")': mlp_reference(*inputs).numpy()}})
    assert run_api(tmp_path, binary=str(path))[0] == 0
    out = capsys.readouterr().out
    assert "mlp.ttnn: PASS," in out and "golden: 1/1 ops reached PCC >= 0.99" in out
    assert run_api(tmp_path, binary=str(path), disable_golden=True)[0] == 0
    assert "mlp.ttnn: PASS (ran; goldens not checked: --disable-golden)," in capsys.readouterr().out
    path = write_mlp(tmp_path, {"mlp": goldens})  # inputs only: no op's value is checked
    assert run_api(tmp_path, binary=str(path))[0] == 0
    assert "mlp.ttnn: PASS (ran; no op result has a golden in the binary)," in capsys.readouterr().out


def test_ttrt_run_rejects_a_bad_program_index(tmp_path):
    code, results = run_api(tmp_path, binary=str(write_mlp(tmp_path)), program_index="3")
    assert code == 1 and "program index 3 is out of range" in results[0]["exception"]


@pytest.mark.parametrize("text,inputs,ref", [
    (single_op("conv2d", [(2, 8, 8, 4), (6, 4, 3, 3)], (2, 8, 8, 6), "dilation = 1 : i32, groups = 1 : i32, "
               "padding = 1 : i32, stride = 1 : i32"), [(2, 8, 8, 4), (6, 4, 3, 3)],
     lambda x, w: F.conv2d(x.permute(0, 3, 1, 2), w, padding=1).permute(0, 2, 3, 1)),
    (single_op("conv_transpose2d", [(1, 4, 4, 8), (8, 3, 2, 2)], (1, 8, 8, 3), "dilation = 1 : i32, groups = 1 : i32, "
               "output_padding = 0 : i32, padding = 0 : i32, stride = 2 : i32"), [(1, 4, 4, 8), (8, 3, 2, 2)],
     lambda x, w: F.conv_transpose2d(x.permute(0, 3, 1, 2), w, stride=2).permute(0, 2, 3, 1)),
    (single_op("avg_pool2d", [(1, 8, 8, 16)], (1, 8, 8, 16), "ceil_mode = false, count_include_pad = true, "
               "dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, "
               "stride = array<i32: 1, 1>"), [(1, 8, 8, 16)],
     lambda x: F.avg_pool2d(x.permute(0, 3, 1, 2), 3, 1, 1).permute(0, 2, 3, 1)),
    (single_op("dot_general", [(4, 8, 5), (5, 4, 3)], (4, 8, 3), "batch_dims_lhs = array<i64: 0>, "
               "contract_dims_lhs = array<i64: 2>, batch_dims_rhs = array<i64: 1>, contract_dims_rhs = array<i64: 0>"),
     [(4, 8, 5), (5, 4, 3)], lambda a, b: torch.einsum("bmk,kbn->bmn", a, b)),
    (single_op("index_select", [(8, 64)], (8, 32), "begin = 0 : si32, dim = 1 : si32, length = 2 : si32, "
               "stride = 4 : si32"), [(8, 64)], lambda x: x.reshape(8, 16, 4)[:, :, :2].reshape(8, 32)),
    (single_op("arange", [], (4, 8), "arange_dimension = 1 : i64, end = 16 : si64, start = 0 : si64, step = 2 : si64"),
     [], lambda: torch.arange(0, 16, 2).float().repeat(4, 1)),
    (single_op("full", [], (3, 5), "fill_value = 2.5 : f32, shape = array<i32: 3, 5>"), [],
     lambda: torch.full((3, 5), 2.5)),
])
def test_convolution_pooling_and_creation_match_torch(text, inputs, ref):
    values = [torch.randn(s) for s in inputs]
    (out,) = run_ttir(text, values)
    torch.testing.assert_close(out, ref(*values), rtol=1e-4, atol=1e-4)


def test_seed_001_python_api_examples_run_as_written(tmp_path, monkeypatch):
    """The ttrt Python API walkthrough, with real paths."""
    monkeypatch.chdir(tmp_path)
    binary = write_mlp(tmp_path)
    from ttrt.common.api import API
    from ttrt.common.util import Artifacts, Logger

    API.initialize_apis()
    args = {"--verbose": True, "--device": "0"}  # example flags: a command ignores those it does not take
    query_instance = API.Query(args=args)
    result_code, results = query_instance()
    assert result_code == 0

    custom_args = {}
    custom_args["--clean-artifacts"] = True
    custom_args["--save-artifacts"] = True
    custom_args["--loops"] = 10
    custom_args["--init"] = "randn"
    custom_args["binary"] = str(binary)
    log_file_name = "some_file_name.log"
    custom_logger = Logger(log_file_name)
    artifacts_folder_path = str(tmp_path / "folder")
    custom_artifacts = Artifacts(logger=custom_logger, artifacts_folder_path=artifacts_folder_path)
    calls = []
    ttrt.runtime.DebugHooks.get(lambda b, p, o: calls.append("pre"), lambda b, p, o: calls.append("post"))
    try:
        run_instance = API.Run(args=custom_args, logger=custom_logger, artifacts=custom_artifacts)
        result_code, results = run_instance()
    finally:
        DebugHooks.clear()
    assert result_code == 0 and len(results[0]["program_results"]["program_index_0"]) == 10
    assert calls.count("pre") == calls.count("post") == 10 * len(Binary(binary).programs[0].operations)
    assert (tmp_path / "folder" / "mlp.ttnn" / "program_0" / "output_0.pt").exists()
    assert "PASS" in (tmp_path / log_file_name).read_text()


def test_calls_to_private_functions_run_on_device_tensors():
    text = (ROOT / "test" / "lit" / "Conversion" / "TTIRToTTNN" / "func_call.mlir").read_text()
    binary = Binary(data=compile_ttir(text))
    assert [(p.name, p.private) for p in binary.programs] == [("gelu_block", True), ("main", False)]
    x, y = torch.randn(32, 64), torch.randn(32, 64)
    device = MeshDevice()
    (out,), ctx = run_program(binary, 1, [x, y], device)
    gelu = torch.nn.functional.gelu
    torch.testing.assert_close(out.data, gelu(gelu(x + y) + y))
    release(binary.programs[1], ctx, [out])
    assert device.allocated_bytes()["dram"] == 0


def mesh_program(body: list[str], arg: tuple, result: tuple) -> str:
    """A function of one argument whose body lines name values %0, %1, ...; returns the last."""
    lines = "\n".join(f"  %{i} = {line}" for i, line in enumerate(body))
    return (f"func.func @f(%arg0: {ty(arg)}) -> {ty(result)} {{\n{lines}\n"
            f"  return %{len(body) - 1} : {ty(result)}\n}}\n")


def shard(value: str, shape, out, dims, mesh, direction="full_to_shard", kind="devices") -> str:
    return (f'"ttir.mesh_shard"({value}) <{{shard_dims = array<i64: {dims[0]}, {dims[1]}>, '
            f"shard_direction = #ttcore.shard_direction<{direction}>, shard_shape = array<i64: {mesh[0]}, {mesh[1]}>, "
            f"shard_type = #ttcore.shard_type<{kind}>}}> : ({ty(shape)}) -> {ty(out)}")


def run_on_mesh(text: str, mesh: tuple, inputs: list) -> tuple[list, MeshDevice]:
    binary = Binary(data=compile_ttir(text, pipeline_options=f"mesh-shape={mesh[0]},{mesh[1]}"))
    assert binary.mesh_shape() == mesh
    device = MeshDevice(mesh_shape=mesh)
    outputs, ctx = run_program(binary, 0, inputs, device, exact=True)
    return [t.data for t in outputs], ctx


X = torch.randn(64, 128)
HALVES = X[:, :64], X[:, 64:]
CCL = {  # a 1x2 mesh; the argument is split by columns, the collective runs, the result is put together
    "all_gather": ('"ttir.all_gather"(%0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}>', (64, 128),
                   "replicate", X),
    "all_reduce": ('"ttir.all_reduce"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}>',
                   (64, 64), "replicate", HALVES[0] + HALVES[1]),
    "all_reduce_async": ('"ttir.all_reduce_async"(%0) <{cluster_axis = 1 : ui32, '
                         "reduce_type = #ttcore.reduce_type<sum>}>", (64, 64), "replicate", HALVES[0] + HALVES[1]),
    "reduce_scatter": ('"ttir.reduce_scatter"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, '
                       "scatter_dim = 1 : si32}>", (64, 32), "devices", HALVES[0] + HALVES[1]),
    "collective_permute": ('"ttir.collective_permute"(%0) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : '
                           "tensor<2x2xi64>}>", (64, 64), "devices", torch.cat([HALVES[1], HALVES[0]], 1)),
    # each chip's rows split in two; chip i gets the i-th half of both chips' rows, side by side
    "all_to_all": ('"ttir.all_to_all"(%0) <{concat_dim = 1 : si32, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, '
                   "split_count = 2 : si32, split_dim = 0 : si32}>", (32, 128), "devices",
                   torch.cat([HALVES[0][:32], HALVES[1][:32], HALVES[0][32:], HALVES[1][32:]], 1)),
    # the group's first chip (chip 1) is the source
    "collective_broadcast": ('"ttir.collective_broadcast"(%0) <{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}>',
                             (64, 64), "devices", torch.cat([HALVES[1], HALVES[1]], 1)),
}


@pytest.mark.parametrize("name", CCL)
def test_collectives_move_data_between_the_chips_of_a_mesh(name):
    op, local, kind, expected = CCL[name]
    full = (local[0], local[1] * 2) if kind == "devices" else local
    text = mesh_program([shard("%arg0", (64, 128), (64, 64), (-1, 1), (1, 2)), f"{op} : ({ty((64, 64))}) -> {ty(local)}",
                         shard("%1", local, full, (-1, 1), (1, 2), "shard_to_full", kind)], (64, 128), full)
    (out,), _ = run_on_mesh(text, (1, 2), [X])
    torch.testing.assert_close(out, expected)


@pytest.mark.parametrize("rows", [32, 64])
def test_distributed_rms_norm_exchanges_statistics_between_chips_holding_parts_of_a_row(rows):
    """Each chip holds half of every row (the input split by columns) and, from mesh_partition of a replicated
    weight, half of the weight: the result is the RMS norm of the whole rows. One tile of rows is the fused
    kernel's shape (its weight in rows of one tile's width); more rows are decomposed by --ttnn-decomposition into
    the per-chip sums of squares, gathered."""
    x, w = torch.randn(rows, 128), torch.randn(128)
    norm = ('"ttir.distributed_rms_norm"(%0, %1) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, '
            f'operandSegmentSizes = array<i32: 1, 1, 0>}}> : ({ty((rows, 64))}, {ty((64,))}) -> {ty((rows, 64))}')
    text = f"""func.func @f(%x: {ty((rows, 128))}, %w: {ty((128,))}) -> {ty((rows, 128))} {{
  %0 = {shard("%x", (rows, 128), (rows, 64), (-1, 1), (1, 2))}
  %1 = "ttir.mesh_partition"(%w) <{{cluster_axis = 1 : ui32, dim = 0 : si32}}> : ({ty((128,))}) -> {ty((64,))}
  %2 = {norm}
  %3 = {shard("%2", (rows, 64), (rows, 128), (-1, 1), (1, 2), "shard_to_full")}
  return %3 : {ty((rows, 128))}
}}
"""
    (out,), _ = run_on_mesh(text, (1, 2), [x, w])
    torch.testing.assert_close(out, torch.nn.functional.rms_norm(x, [128], w, 1e-5), rtol=1e-4, atol=1e-4)


def test_a_2x2_mesh_gathers_along_each_axis():
    block = (32, 64)
    text = mesh_program([shard("%arg0", (64, 128), block, (0, 1), (2, 2)),
                         f'"ttir.all_gather"(%0) <{{all_gather_dim = 0 : si32, cluster_axis = 0 : ui32}}> : '
                         f"({ty(block)}) -> {ty((64, 64))}",
                         shard("%1", (64, 64), (64, 128), (-1, 1), (2, 2), "shard_to_full")], (64, 128), (64, 128))
    (out,), _ = run_on_mesh(text, (2, 2), [X])
    torch.testing.assert_close(out, X)


def test_tensor_parallel_mlp_on_two_chips_matches_torch():
    """Megatron-style: the first weight split by columns, the second by rows, one all_reduce."""
    x, w1, w2 = torch.randn(32, 64), torch.randn(64, 128), torch.randn(128, 64)
    text = f"""func.func @f(%x: {ty((32, 64))}, %w1: {ty((64, 128))}, %w2: {ty((128, 64))}) -> {ty((32, 64))} {{
  %0 = {shard("%w1", (64, 128), (64, 64), (-1, 1), (1, 2))}
  %1 = {shard("%w2", (128, 64), (64, 64), (-1, 0), (1, 2))}
  %2 = "ttir.matmul"(%x, %0) : ({ty((32, 64))}, {ty((64, 64))}) -> {ty((32, 64))}
  %3 = "ttir.relu"(%2) : ({ty((32, 64))}) -> {ty((32, 64))}
  %4 = "ttir.matmul"(%3, %1) : ({ty((32, 64))}, {ty((64, 64))}) -> {ty((32, 64))}
  %5 = "ttir.all_reduce"(%4) <{{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}}> : ({ty((32, 64))}) -> {ty((32, 64))}
  %6 = {shard("%5", (32, 64), (32, 64), (-1, -1), (1, 2), "shard_to_full", "replicate")}
  return %6 : {ty((32, 64))}
}}
"""
    (out,), ctx = run_on_mesh(text, (1, 2), [x, w1, w2])
    torch.testing.assert_close(out, torch.relu(x @ w1) @ w2, rtol=1e-4, atol=1e-4)
    release(ctx.binary.programs[0], ctx, [ctx.pool[r.globalId] for r in ctx.binary.programs[0].outputs])
    assert ctx.device.allocated_bytes()["dram"] == 0  # what the program did not free is its inputs and outputs
    ccl = [p for op, p, *_ in ctx.perf if op.name == "all_reduce"]
    assert ccl[0].bandwidth_ns > 0


def moe_program(tokens: int, hidden: int, k: int, experts: int) -> str:
    """Expert parallelism on a 1x2 mesh: each chip has half the tokens and half the experts (a scale each);
    dispatch, scale by the local experts, combine back; and the chips' local expert maps."""
    bf, i32 = (lambda s: ty(s, "bf16")), (lambda s: ty(s, "i32"))
    local, mesh = experts // 2, (1, 2)
    x, idx, mapping, scores = (2, 1, tokens, hidden), (2, 1, tokens, k), (1, 1, experts, 2), (2, 1, tokens, experts)
    part = lambda shape: (1, *shape[1:])
    piece = lambda value, shape, dtype, out=None: shard(value, shape, out or part(shape), (-1, 0), mesh).replace(
        "f32", dtype)
    whole = lambda value, shape, dim: shard(value, shape, tuple(n * 2 if i == dim else n for i, n in enumerate(shape)),
                                            (-1, dim), mesh, "shard_to_full").replace("f32", "bf16")
    return f"""func.func @f(%x: {bf(x)}, %idx: {i32(idx)}, %map: {i32(mapping)}, %w: {bf((experts, 1, 1, 1))}, %s: {bf(scores)}) -> ({bf((k, 2, tokens, hidden))}, {bf((2, 1, tokens, local))}) {{
  %0 = {piece("%x", x, "bf16")}
  %1 = {piece("%idx", idx, "i32")}
  %2 = {piece("%w", (experts, 1, 1, 1), "bf16", (local, 1, 1, 1))}
  %3, %4 = "ttir.all_to_all_dispatch"(%0, %1, %map) <{{cluster_axis = 1 : i64, num_devices = 2 : i64}}> : ({bf(part(x))}, {i32(part(idx))}, {i32(mapping)}) -> ({bf((1, 2, tokens, hidden))}, {i32((1, 2, tokens, k))})
  %5 = "ttir.multiply"(%3, %2) : ({bf((1, 2, tokens, hidden))}, {bf((local, 1, 1, 1))}) -> {bf((local, 2, tokens, hidden))}
  %6 = "ttir.all_to_all_combine"(%5, %4, %map) <{{cluster_axis = 1 : i64, num_devices = 2 : i64, num_experts_per_tok = {k} : i64, output_shard_dim = 1 : i64}}> : ({bf((local, 2, tokens, hidden))}, {i32((1, 2, tokens, k))}, {i32(mapping)}) -> {bf((k, 1, tokens, hidden))}
  %7 = {whole("%6", (k, 1, tokens, hidden), 1)}
  %8 = {piece("%s", scores, "bf16")}
  %9, %10 = "ttir.moe_expert_token_remap"(%8, %map, %1) <{{reduction_size = 4 : i64}}> : ({bf(part(scores))}, {i32(mapping)}, {i32(part(idx))}) -> ({bf((1, 1, tokens, local))}, {bf((1, 1, tokens // 4, local))})
  %11 = {whole("%9", (1, 1, tokens, local), 0)}
  return %7, %11 : {bf((k, 2, tokens, hidden))}, {bf((2, 1, tokens, local))}
}}
"""


def test_expert_parallel_moe_sends_tokens_to_their_experts_chips_and_back():
    """Each token comes back once per chosen expert, scaled by that expert (held by either chip); each chip's
    local map keeps the scores of its own experts a token chose."""
    tokens, hidden, k, experts = 8, 32, 2, 4
    x, scores = torch.randn(2, 1, tokens, hidden).bfloat16(), torch.rand(2, 1, tokens, experts).bfloat16()
    idx = torch.stack([torch.randperm(experts)[:k] for _ in range(2 * tokens)]).reshape(2, 1, tokens, k).int()
    chip_of = [0, 1, 0, 1]  # experts 0 and 2 on chip 0, 1 and 3 on chip 1
    mapping = F.one_hot(torch.tensor(chip_of), 2).reshape(1, 1, experts, 2).int()
    w = torch.tensor([2.0, 3.0, 5.0, 7.0]).bfloat16().reshape(experts, 1, 1, 1)  # by chip, then rank on it
    (combined, local), _ = run_on_mesh(moe_program(tokens, hidden, k, experts), (1, 2), [x, idx, mapping, w, scores])
    scale = {0: 2.0, 2: 3.0, 1: 5.0, 3: 7.0}
    want = torch.stack([x[:, 0] * torch.tensor([scale[int(e)] for e in idx[..., j].flatten()]).reshape(2, tokens, 1)
                        for j in range(k)]).bfloat16()
    torch.testing.assert_close(combined, want)
    chose = F.one_hot(idx.long(), experts).sum(-2).bool()  # [2, 1, tokens, E]
    mine = [[e for e in range(experts) if chip_of[e] == chip] for chip in range(2)]
    want_local = torch.cat([(scores * chose)[chip:chip + 1, ..., mine[chip]] for chip in range(2)])
    torch.testing.assert_close(local, want_local)


def test_inputs_sharded_in_advance_take_one_value_per_chip():
    text = single_op("relu", [(32, 64)], (32, 64))
    binary = Binary(data=compile_ttir(text, pipeline_options="mesh-shape=1,2"))
    parts = [torch.randn(32, 64), torch.randn(32, 64)]
    (out,), _ = run_program(binary, 0, [parts], MeshDevice(mesh_shape=(1, 2)))
    assert [torch.equal(v, torch.relu(p)) for v, p in zip(out.chip_values(2), parts)] == [True, True]
    with pytest.raises(RuntimeFailure, match="input 0 has 3 per-chip values for a mesh of 2 chips"):
        run_program(binary, 0, [parts + parts[:1]], MeshDevice(mesh_shape=(1, 2)))


def test_a_binary_runs_only_on_the_mesh_it_was_compiled_for():
    binary = Binary(data=compile_ttir(single_op("relu", [(32, 64)], (32, 64)), pipeline_options="mesh-shape=1,2"))
    with pytest.raises(RuntimeFailure, match="compiled for a 1x2 mesh, the device is a 1x1 mesh"):
        run_program(binary, 0, [torch.randn(32, 64)], MeshDevice())


def test_ops_hoisted_to_the_cpu_run_on_host_tensors():
    text = (ROOT / "test" / "lit" / "Transforms" / "cpu_hoist.mlir").read_text()
    binary = Binary(data=compile_ttir(text))
    # the CPU function is compiled code the calling programs reach through a CpuOp, not a program of its own
    assert not [p for p in binary.programs if p.name.startswith("cpu_hoisted_ttir_add_")]
    x, y = torch.randn(32, 32), torch.randn(32, 32)
    device = MeshDevice()
    (out,), ctx = run_program(binary, 1, [x, y], device)
    torch.testing.assert_close(out.data, x + y)
    hoisted = [perf for op, perf, *_ in ctx.perf if op.name == "cpu"]
    assert [p.kernel_ns for p in hoisted] == [0.0]  # host work costs no device time
    release(binary.programs[1], ctx, [out])
    (out,), ctx = run_program(binary, 0, [x.bfloat16(), y.bfloat16()], device)
    # the f32 sum goes back to bf16 on the host, as upstream's host-side cast: round to nearest even (the
    # device's packer would round ties away from zero)
    total = x.bfloat16().float() + y.bfloat16().float()
    assert torch.equal(out.data, total.bfloat16())
    release(binary.programs[0], ctx, [out])
    assert device.allocated_bytes()["dram"] == 0


def sharded_program(grid: tuple[int, int], rows: int = 256) -> bytes:
    """Host -> DRAM -> a block-sharded L1 copy on `grid` cores -> relu -> host, written in TTNN."""
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context
    from ttmlir.passes import make_pass
    from ttmlir.target.ttnn import translate

    shard = (rows // 32 // grid[0], 8 // grid[1])
    layouts = {
        "host": "<1x1>, memref<{r}x256xf32, #ttnn.buffer_type<system_memory>>",
        "rm": "<1x1>, memref<{r}x256xf32, #ttnn.buffer_type<dram>>, <interleaved>",
        "tiled": "<1x1>, memref<{t}x8x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, <interleaved>",
        "sharded": f"<{grid[0]}x{grid[1]}>, memref<{shard[0]}x{shard[1]}x!ttcore.tile<32x32, f32>, "
                   f"#ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<"
                   f"(0,0), ({grid[1] - 1},{grid[0] - 1})>]>",
        "hosttiled": "<1x1>, memref<{t}x8x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<system_memory>>",
    }
    ty = {k: f"tensor<{rows}x256xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), {v.format(r=rows, t=rows // 32)}>>"
          for k, v in layouts.items()}
    text = f"""module {{
  func.func @f(%arg0: {ty['host']}) -> {ty['host']} {{
    %0 = "ttnn.get_device"() <{{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device
    %1 = "ttnn.to_device"(%arg0, %0) : ({ty['host']}, !ttnn.device) -> {ty['rm']}
    %2 = "ttnn.to_layout"(%1) : ({ty['rm']}) -> {ty['tiled']}
    "ttnn.deallocate"(%1) <{{force = false}}> : ({ty['rm']}) -> ()
    %3 = "ttnn.to_memory_config"(%2) : ({ty['tiled']}) -> {ty['sharded']}
    "ttnn.deallocate"(%2) <{{force = false}}> : ({ty['tiled']}) -> ()
    %4 = "ttnn.relu"(%3) : ({ty['sharded']}) -> {ty['sharded']}
    "ttnn.deallocate"(%3) <{{force = false}}> : ({ty['sharded']}) -> ()
    %5 = "ttnn.from_device"(%4) : ({ty['sharded']}) -> {ty['hosttiled']}
    "ttnn.deallocate"(%4) <{{force = false}}> : ({ty['sharded']}) -> ()
    %6 = "ttnn.to_layout"(%5) : ({ty['hosttiled']}) -> {ty['host']}
    return %6 : {ty['host']}
  }}
}}
"""
    module, _ = load_module(make_context(), text, "<sharded>")
    make_pass("ttcore-register-device", "").apply(make_context(), module)
    return translate(module)


def test_sharded_l1_tensors_put_one_shard_on_each_core_of_their_grid():
    binary = Binary(data=sharded_program((2, 2)))
    l1_after = {}
    DebugHooks.get(post_op=lambda b, ctx, op: l1_after.setdefault(op.name, ctx.device.allocated_bytes()["l1"]))
    try:
        x = torch.randn(256, 256)
        (out,), ctx = run_program(binary, 0, [x], MeshDevice())
    finally:
        DebugHooks.clear()
    shard = 256 * 256 * 4 // 4  # a quarter of the f32 tensor on each of the 4 cores
    assert l1_after["to_memory_config"] == shard and l1_after["relu"] == 2 * shard
    torch.testing.assert_close(out.data, torch.relu(x))
    assert ctx.device.allocated_bytes()["l1"] == 0


def test_a_shard_larger_than_a_core_l1_is_out_of_memory():
    binary = Binary(data=sharded_program((1, 1), rows=2048))  # 2 MiB on one core of 1.4 MiB
    with pytest.raises(RuntimeFailure, match="'ttnn.to_memory_config'.*out of memory.*in l1"):
        run_program(binary, 0, [torch.randn(2048, 256)], MeshDevice())


def test_a_shard_grid_beyond_the_worker_cores_is_refused():
    binary = Binary(data=sharded_program((16, 8), rows=512))  # 16 rows of cores on an 8x8 Wormhole
    with pytest.raises(RuntimeFailure, match="'ttnn.to_memory_config'.*16x8 shard grid does not fit the 8x8"):
        run_program(binary, 0, [torch.randn(512, 256)], MeshDevice())


def test_random_token_ids_stay_inside_the_table_they_index():
    """`ttrt run` draws integer inputs; ids that reach an embedding (through a reshape and a cast) are drawn
    below its row count, as a model's token ids are, so a 3-row table is never read past its end."""
    from ttmlir.runtime.session import index_bounds, make_inputs

    text = f"""func.func @f(%ids: {ty((2, 16), "i32")}, %table: {ty((3, 64))}) -> {ty((32, 64))} {{
  %0 = "ttir.reshape"(%ids) <{{shape = [1 : i32, 32 : i32]}}> : ({ty((2, 16), "i32")}) -> {ty((1, 32), "i32")}
  %1 = "ttir.typecast"(%0) : ({ty((1, 32), "i32")}) -> {ty((1, 32), "ui32")}
  %2 = "ttir.embedding"(%1, %table) : ({ty((1, 32), "ui32")}, {ty((3, 64))}) -> {ty((1, 32, 64))}
  %3 = "ttir.reshape"(%2) <{{shape = [32 : i32, 64 : i32]}}> : ({ty((1, 32, 64))}) -> {ty((32, 64))}
  return %3 : {ty((32, 64))}
}}
"""
    binary = Binary(data=compile_ttir(text))
    assert index_bounds(binary.programs[0]) == {0: 3}
    ids, table = make_inputs(binary, 0, "randn", 0)
    assert int(ids.max()) < 3 and int(ids.max()) > 0
    (out,), _ = run_program(binary, 0, [ids, table], MeshDevice())
    torch.testing.assert_close(out.data.float(), table[ids.reshape(-1).long()].float(), rtol=1e-2, atol=1e-2)  # bf16 on device


def test_compute_config_math_fidelity_sets_the_matmul_rate():
    """A matmul's compute_config math fidelity is carried into the binary and sets the modelled compute
    time: a tile product takes 16 cycles at LoFi, 64 at HiFi4 (plus the same unpacking)."""
    from ttmlir.asm import print_module
    from ttmlir.compiler import lower_to_ttnn
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context
    from ttmlir.target.ttnn import translate

    unset = "compute-cfg-math-fidelity=undefined compute-cfg-fp32-dest-acc-en=unset"  # the matmul gets no config
    ttnn_text = print_module(lower_to_ttnn(single_op("matmul", [(256, 512), (512, 256)], (256, 256)),
                                           pipeline_options=unset))
    a, b = torch.randn(256, 512), torch.randn(512, 256)
    compute = {}
    for fidelity in ("lofi", "hifi4"):
        config = f"<{{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = {fidelity}>, "
        text = ttnn_text.replace('"ttnn.matmul"(%arg0, %arg1) <{', f'"ttnn.matmul"(%arg0, %arg1) {config}')
        assert config in text
        module, _ = load_module(make_context(), text, "<matmul>")
        (out,), ctx = run_program(Binary(data=translate(module)), 0, [a, b], MeshDevice(), exact=True)
        torch.testing.assert_close(out.data, a @ b, rtol=1e-4, atol=1e-3)
        (perf,) = [p for op, p, *_ in ctx.perf if op.name == "matmul"]
        compute[perf.fidelity] = perf.compute_ns
    # 8 x 8 output tiles on 64 cores, 16 tile products each along the inner dimension, 48 more cycles each at 1 GHz
    assert compute["HiFi4"] - compute["LoFi"] == pytest.approx(16 * 48)


def test_attention_time_is_modelled_from_its_flops():
    """Attention's compute time counts the flops of q kᵀ and of the weights times v: twice the keys, twice the
    time (prefill, bf16 operands as the kernel takes them)."""
    compute = {}
    for keys in (256, 512):
        shapes = [(1, 8, 128, 64), (1, 8, keys, 64), (1, 8, keys, 64)]
        binary = Binary(data=compile_ttir(single_op("scaled_dot_product_attention", shapes, shapes[0],
                                                    "is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>"),
                                          pipeline_options="enable-ttnn-decomposition-pass=false"))
        _, ctx = run_program(binary, 0, [torch.randn(s) for s in shapes], MeshDevice())
        (perf,) = [p for op, p, *_ in ctx.perf if op.name == "scaled_dot_product_attention"]
        compute[keys] = perf.compute_ns
    assert compute[512] == pytest.approx(2 * compute[256])


def test_fused_reshapes_compute_what_the_unfused_graph_does():
    """sum + reshape fused into a keep_dim sum feeding softmax, and two operand reshapes moved after an add."""
    text = """func.func @f(%a: tensor<32x64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.exp"(%a) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<32xf32>
  %2 = "ttir.reshape"(%1) <{shape = [32 : i32, 1 : i32]}> : (tensor<32xf32>) -> tensor<32x1xf32>
  %3 = "ttir.broadcast"(%2) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
  %4 = "ttir.div"(%0, %3) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %5 = "ttir.reshape"(%b) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xf32>) -> tensor<1x64xf32>
  %6 = "ttir.reshape"(%c) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xf32>) -> tensor<1x64xf32>
  %7 = "ttir.multiply"(%5, %6) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %8 = "ttir.add"(%4, %7) : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
  return %8 : tensor<32x64xf32>
}
"""
    a, b, c = torch.randn(32, 64), torch.randn(64), torch.randn(64)
    (out,) = run_ttir(text, [a, b, c])
    torch.testing.assert_close(out, torch.softmax(a, 1) + b * c, rtol=1e-3, atol=1e-3)


def test_collectives_of_low_rank_tensors_run_reshaped():
    """all_reduce of a matrix runs in 4D, all_gather of a vector in 2D: the values are the collective's."""
    text = mesh_program([shard("%arg0", (2, 64), (1, 64), (-1, 0), (1, 2)),  # a row per chip
                         f'"ttir.reshape"(%0) <{{shape = [64 : i32]}}> : ({ty((1, 64))}) -> {ty((64,))}',
                         f'"ttir.all_gather"(%1) <{{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}}> : '
                         f"({ty((64,))}) -> {ty((128,))}",
                         f'"ttir.reshape"(%2) <{{shape = [2 : i32, 64 : i32]}}> : ({ty((128,))}) -> {ty((2, 64))}',
                         f'"ttir.all_reduce"(%3) <{{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}}> : '
                         f"({ty((2, 64))}) -> {ty((2, 64))}",
                         shard("%4", (2, 64), (2, 64), (-1, -1), (1, 2), "shard_to_full", "replicate")], (2, 64), (2, 64))
    x = torch.randn(2, 64)
    (out,), _ = run_on_mesh(text, (1, 2), [x])
    torch.testing.assert_close(out, 2 * x)


def test_integer_product_along_a_short_dim_is_exact():
    """An i32 product along 5 elements (up to 9**5, far past bf16's exact integers) is multiplies, exact."""
    from ttmlir.asm import print_module
    from ttmlir.compiler import lower_to_ttnn

    x = torch.randint(1, 10, (4, 5), dtype=torch.int32)
    text = single_op("prod", [(4, 5)], (4,), "dim_arg = [1 : i32], keep_dim = false", dtype="i32")
    assert print_module(lower_to_ttnn(text)).count('"ttnn.multiply"') == 4
    (out,) = run_ttir(text, [x])
    assert torch.equal(out.long(), x.long().prod(1))


def trace_binary() -> Binary:
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context
    from ttmlir.passes import make_pass
    from ttmlir.target.ttnn import translate

    text = (ROOT / "test" / "lit" / "Dialect" / "TTNN" / "trace" / "capture_or_execute.mlir").read_text()
    module, _ = load_module(make_context(), text, "<trace>")
    make_pass("ttcore-register-device", "").apply(make_context(), module)
    return Binary(data=translate(module))


def test_trace_is_captured_once_and_replayed_on_new_inputs():
    """The first run allocates the slots and captures (a + b) * b; later runs write their inputs into the
    slots and replay the recorded ops, which store into the output slot the device keeps."""
    binary = trace_binary()
    main = next(i for i, p in enumerate(binary.programs) if p.name == "main")
    device = MeshDevice()
    slots = None
    for run in range(3):
        a, b = torch.randn(32, 64).bfloat16(), torch.randn(32, 64).bfloat16()
        (out,), ctx = run_program(binary, main, [a, b], device)
        torch.testing.assert_close(out.data.float(), ((a.float() + b.float()).bfloat16().float() * b.float()),
                                   rtol=1e-2, atol=1e-2)
        ran = [op.name for op, *_ in ctx.perf]
        assert ran.count("add") == (2 if run == 0 else 1)  # the first run also runs the trace before capturing it
        # every run writes its two host inputs into their slots (the capture function's ops, later the trace op)
        assert ran.count("write_tensor") == 2 and ran.count("execute_trace") == 1
        release(binary.programs[main], ctx, [out])
        slots = slots or device.trace_cache
        assert len(device.traces) == 1 and device.trace_cache is slots
    assert device.program_bytes()["dram"] == 0 < device.allocated_bytes()["dram"]  # only the three slots stay


def test_a_trace_replayed_before_its_capture_is_a_named_failure():
    binary = trace_binary()
    execute = next(i for i, p in enumerate(binary.programs) if p.name == "execute")
    with pytest.raises(RuntimeFailure, match="no trace 3 was captured on this device"):
        run_program(binary, execute, [torch.tensor(3)], MeshDevice())


def test_moe_remap_reads_a_device_major_expert_mapping():
    """moe_expert_token_remap takes expert_mapping [1, 1, D, E] (upstream's tests, newer tt-metal) as the documented
    [1, 1, E, D] transposed: each chip keeps the scores of the experts its row marks."""
    from ttmlir.runtime import ccl

    tokens, experts, chips = 8, 4, 2
    scores = [torch.rand(1, 1, tokens, experts) for _ in range(chips)]
    chosen = [torch.stack([torch.randperm(experts)[:2] for _ in range(tokens)]).reshape(1, 1, tokens, 2).int()
              for _ in range(chips)]
    by_expert = F.one_hot(torch.tensor([0, 1, 0, 1]), chips).reshape(1, 1, experts, chips).int()
    shapes = ((1, 1, tokens, experts // chips), (1, 1, tokens // 4, experts // chips))
    expert_major = ccl.moe_expert_token_remap(scores, [by_expert] * chips, chosen, 4, shapes)
    device_major = ccl.moe_expert_token_remap(scores, [by_expert.transpose(2, 3)] * chips, chosen, 4, shapes)
    for a, b in zip(expert_major, device_major):
        assert all(torch.equal(x, y) for x, y in zip(a, b))
    picked = F.one_hot(chosen[1].long(), experts).sum(-2).bool()
    assert torch.equal(expert_major[0][1], (scores[1] * picked)[..., [1, 3]])  # chip 1 holds experts 1 and 3


def test_distribute_and_aggregate_over_a_2x4_mesh():
    """A mapper cuts each chip's piece by its mesh coordinates (dim 0 down the rows, dim 1 along the columns); a
    composer's override is the sub-mesh at the origin whose chips it reads (a replicated axis: one chip of it)."""
    from ttmlir.runtime import ccl

    mesh, full = (2, 4), torch.arange(4 * 8.0).reshape(4, 8)
    pieces = ccl.distribute([full] * 8, [("shard", 0), ("shard", 1)], [2, 4], mesh)
    assert torch.equal(pieces[6], full[2:4, 4:6])  # chip 6 sits at row 1, column 2
    assert all(torch.equal(t, full) for t in ccl.aggregate(pieces, [0, 1], [2, 4], mesh))
    columns = ccl.distribute([full] * 8, [("replicate", -1), ("shard", 1)], None, mesh)
    assert torch.equal(columns[5], full[:, 2:4]) and torch.equal(columns[1], columns[5])
    assert torch.equal(ccl.aggregate(columns, [0, 1], [1, 4], mesh)[3], full)  # the first row's chips only
    assert torch.equal(ccl.aggregate(columns, [0], [1], mesh)[0], columns[0])  # replicated: the first chip's
    with pytest.raises(ValueError, match="does not fit the 2x4 mesh"):
        ccl.aggregate(columns, [0, 1], [1, 8], mesh)
    with pytest.raises(ValueError, match="dimension 1 of size 8 does not split evenly over 3 chips"):
        ccl.distribute([full] * 3, [("shard", 1)], [3], (1, 3))
