"""The flatbuffer target: schema coverage, regeneration, ttmlir-translate, ttrt read/query/check, bad binaries."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ttmlir.compiler import compile_ttir
from ttmlir.dialects.ttnn import TTNN_ROWS
from ttmlir.target import binary_generated as fb
from ttmlir.target import flatbuffer as fbu
from ttmlir.target.generate import generate
from ttmlir.target.ttnn import NEVER_SERIALIZED, RUNTIME_ALLOCATED, table_of
from ttrt.common.api import API

ROOT = Path(__file__).resolve().parents[3]
MLP = (ROOT / "examples" / "mlp.mlir").read_text()


def tool(name: str, *args, stdin=None):
    """A command-line tool as a user starts it (served warm when the suite has a tool server)."""
    return subprocess.run([str(Path(sys.executable).parent / name), *args], input=stdin, capture_output=True,
                          cwd=ROOT)


@pytest.fixture(scope="module")
def mlp_binary(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bin") / "mlp.ttnn"
    path.write_bytes(compile_ttir(MLP))
    return path


def api(command: str, tmp_path: Path, **args):
    API.initialize_apis()
    args = {k if k == "binary" else "--" + k.replace("_", "-"): v for k, v in args.items()}
    return API.registered_apis[command](args={"--result-file": str(tmp_path / "results.json"),
                                              "--artifact-dir": str(tmp_path / "artifacts"), **args})()


@pytest.mark.parametrize("row", [r for r in TTNN_ROWS if r.name not in NEVER_SERIALIZED], ids=lambda r: r.name)
def test_every_ttnn_op_has_a_table_with_its_fields(row):
    table = getattr(fb, table_of(row) + "T")()
    fields = vars(table)
    allocated = RUNTIME_ALLOCATED.get(row.name, ())
    for name in [o.rstrip("?*") for o in row.operands if o.rstrip("?*") not in allocated] + [p[0] for p in row.props]:
        assert fbu.field(name) in fields, f"{table_of(row)} lacks '{name}'"
    for name in row.results:
        assert ("out" if name == "result" else fbu.field(name.rstrip("*?"))) in fields
    enum = getattr(fb, table_of(row) + "Type", None)
    if enum is not None:
        assert hasattr(enum, fbu.camel(row.name))
        assert fbu.enum_names(enum)[getattr(enum, fbu.camel(row.name))] == row.name


def test_regenerating_the_accessors_changes_nothing(tmp_path):
    for fresh in generate(tmp_path):
        assert fresh.read_text() == (ROOT / "ttmlir" / "target" / fresh.name).read_text()


def test_translate_writes_a_binary_that_reads_back_as_compiled(tmp_path):
    ttnn_ir = tool("ttmlir-opt", "--ttir-to-ttnn-backend-pipeline", str(ROOT / "examples" / "mlp.mlir")).stdout
    out = tmp_path / "mlp.ttnn"
    result = tool("ttmlir-translate", "--ttnn-to-flatbuffer", "-o", str(out), stdin=ttnn_ir)
    assert result.returncode == 0, result.stderr
    kind, root = fbu.load(out)
    assert kind == "ttnn" and fbu.version_str(root.version) == "0.1.0"
    program = root.programs[0]
    assert program.name == "mlp"
    assert [list(r.desc.shape) for r in program.inputs] == [[32, 784], [784, 256], [1, 256], [256, 10], [1, 10]]
    ops = [fbu.op_name(op) for op in program.operations]
    assert ops.count("linear") == 2 and "add" not in ops  # matmul + bias add fused
    assert "to_device" not in ops and "from_device" not in ops  # the runtime places inputs and reads outputs
    matmul = next(op.type for op in program.operations if fbu.op_name(op) == "linear")
    layout = fbu.to_json(matmul.out.desc.layout)
    assert layout["layout"] == "tile" and layout["memref_shape"] == [1, 8] and layout["data_type"] == "f32"
    assert layout["memory_config"] == {"buffer_type": "dram", "tensor_memory_layout": "interleaved",
                                       "shard_spec": None, "nd_shard_spec": None}
    # one SSA value, one global id: the first matmul reads the program's inputs by their ids
    assert [matmul.a.globalId, matmul.b.globalId] == [r.globalId for r in program.inputs[:2]]


def test_translate_keeps_the_module_inline_with_print_local_scope(tmp_path):
    """--mlir-print-local-scope: the MLIR the .ttnn keeps for debugging has its layouts inline, not as aliases;
    other translations refuse the flag."""
    ttnn_ir = tool("ttmlir-opt", "--ttir-to-ttnn-backend-pipeline", str(ROOT / "examples" / "mlp.mlir")).stdout
    kept = {}
    for flags in ((), ("--mlir-print-local-scope",)):
        out = tmp_path / f"mlp{len(flags)}.ttnn"
        result = tool("ttmlir-translate", "--ttnn-to-flatbuffer", *flags, "-o", str(out), stdin=ttnn_ir)
        assert result.returncode == 0, result.stderr
        kept[flags] = fbu.load(out)[1].programs[0].debugInfo.mlir.source
    assert "#ttnn_layout = " in kept[()] and "#ttnn_layout" not in kept[("--mlir-print-local-scope",)]
    assert "#ttnn.ttnn_layout<" in kept[("--mlir-print-local-scope",)]
    result = tool("ttmlir-translate", "--mlir-to-python", "--mlir-print-local-scope", stdin=b"module {}")
    assert result.returncode == 1 and b"applies to --ttnn-to-flatbuffer only" in result.stderr


def test_translate_rejects_ttir_with_a_located_error_and_no_file(tmp_path):
    src = tmp_path / "ttir.mlir"
    src.write_text(MLP)
    out = tmp_path / "out.ttnn"
    result = tool("ttmlir-translate", "--ttnn-to-flatbuffer", str(src), "-o", str(out))
    assert result.returncode == 1 and not out.exists()
    assert b"no ttcore.system_desc" in result.stderr and b"Traceback" not in result.stderr


def test_read_sections(mlp_binary, tmp_path, capsys):
    code, results = api("read", tmp_path, binary=str(mlp_binary), section="op_stats")
    assert code == 0 and results[0]["result"] == "pass"
    stats = json.loads(capsys.readouterr().out)["op_stats"][0]
    assert stats["ops"]["ttnn.linear"] == 2 and stats["ops"]["ttnn.softmax"] == 1
    assert stats["num_ops"] == sum(stats["ops"].values())
    code, _ = api("read", tmp_path, binary=str(mlp_binary), section="mlir")
    mlir = json.loads(capsys.readouterr().out)["mlir"]
    assert set(mlir) == {"ttir", "ttnn"} and '"ttnn.softmax"' in mlir["ttnn"]


def test_query_save_then_compile_with_it_then_check(tmp_path):
    code, results = api("query", tmp_path, save_artifacts=True, quiet=True, arch="blackhole")
    ttsys = Path(results[0]["system_desc_path"])
    assert code == 0 and ttsys.exists()
    binary = tmp_path / "bh.ttnn"
    binary.write_bytes(compile_ttir(MLP, pipeline_options=f"system-desc-path={ttsys}"))
    assert api("check", tmp_path, binary=str(binary), system_desc=str(ttsys))[0] == 0
    code, results = api("check", tmp_path, binary=str(binary))  # against the default Wormhole system
    assert code == 1 and "compiled for arch = blackhole" in results[0]["exception"]


def test_version_mismatch_fails_unless_ignored(mlp_binary, tmp_path):
    _, root = fbu.load(mlp_binary)
    root.version.patch += 1
    bumped = tmp_path / "bumped.ttnn"
    bumped.write_bytes(fbu.serialize(root, "ttnn"))
    code, results = api("check", tmp_path, binary=str(bumped))
    assert code == 1 and "binary version 0.1.1 does not match ttrt version 0.1.0" in results[0]["exception"]
    assert api("check", tmp_path, binary=str(bumped), ignore_version=True)[0] == 0


def test_bad_files_in_a_directory_are_reported_and_the_rest_processed(mlp_binary, tmp_path):
    folder = tmp_path / "bins"
    folder.mkdir()
    (folder / "a_good.ttnn").write_bytes(mlp_binary.read_bytes())
    (folder / "b_empty.ttnn").write_bytes(b"")
    (folder / "c_foreign.ttnn").write_bytes(b"\x00" * 64)
    (folder / "d_truncated.ttnn").write_bytes(mlp_binary.read_bytes()[:5000])
    code, results = api("read", tmp_path, binary=str(folder), section="version")
    assert code == 1
    by_name = {Path(r["file_path"]).name: r for r in results}
    assert by_name["a_good.ttnn"]["result"] == "pass"
    assert "empty or truncated" in by_name["b_empty.ttnn"]["exception"]
    assert "not a ttmlir flatbuffer" in by_name["c_foreign.ttnn"]["exception"]
    assert by_name["d_truncated.ttnn"]["result"] == "error"
    saved = json.loads((tmp_path / "results.json").read_text())
    assert [r["result"] for r in saved] == ["pass", "error", "error", "error"]


def test_fuzzed_binaries_never_crash_read(mlp_binary, tmp_path):
    data = mlp_binary.read_bytes()[:20000]  # the header, tables and first ops; keeps each decode quick
    rng = random.Random(7)
    for i in range(300):
        mutated = bytearray(data)
        if i % 3 == 0:
            mutated = mutated[:rng.randrange(len(mutated))]
        for _ in range(rng.randint(1, 8)):
            if mutated:
                mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        try:
            kind, root = fbu.load_bytes(bytes(mutated), f"fuzz{i}")
            json.dumps(fbu.to_json(root.programs or []))
        except fbu.BinaryError as exc:
            assert f"fuzz{i}" in str(exc)


def test_cli_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.ttnn"
    bad.write_bytes(b"garbage!")
    result = tool("ttrt", "read", str(bad), "--result-file", str(tmp_path / "r.json"))
    assert result.returncode == 1 and b"Traceback" not in result.stderr + result.stdout
    assert b"not a ttmlir flatbuffer" in result.stdout


def _rewritten(mlp_binary: Path, tmp_path: Path, change) -> Path:
    """The MLP binary with its object tree changed by `change`, written by the regular writer."""
    _, root = fbu.load(mlp_binary)
    change(root)
    path = tmp_path / "changed.ttnn"
    path.write_bytes(fbu.serialize(root, "ttnn"))
    return path


def _first_op_with_tensor(root):
    for index, operation in enumerate(root.programs[0].operations):
        for key, value in vars(operation.type).items():
            if isinstance(value, fb.TensorRefT):
                return index, operation, key


@pytest.mark.parametrize("command", ["read", "check", "run"])
def test_a_tensor_without_descriptor_is_refused_naming_its_op(mlp_binary, tmp_path, command):
    def drop_descriptor(root):
        _, operation, key = _first_op_with_tensor(root)
        getattr(operation.type, key).desc = None

    path = _rewritten(mlp_binary, tmp_path, drop_descriptor)
    index, operation, key = _first_op_with_tensor(fbu.load_bytes(mlp_binary.read_bytes())[1])
    code, results = api(command, tmp_path, binary=str(path))
    assert code == 1
    message = results[0]["exception"]
    assert f"operation {index} ('ttnn.{fbu.op_name(operation)}' at loc(" in message
    assert f"'{fbu.snake(key)}'" in message and "has no descriptor" in message


def test_an_output_without_layout_is_refused(mlp_binary, tmp_path):
    """Defaults (f32, host memory) would have run and printed PASS with other numbers."""
    path = _rewritten(mlp_binary, tmp_path, lambda root: setattr(root.programs[0].outputs[0].desc, "layout", None))
    code, results = api("run", tmp_path, binary=str(path))
    assert code == 1 and "output 0: corrupted flatbuffer (tensor" in results[0]["exception"]
    assert "has no layout" in results[0]["exception"]


def test_a_flipped_byte_in_stored_golden_data_fails_the_checksum(tmp_path):
    """The binary's own input values: a run would use the flipped one and could pass with other numbers."""
    import numpy as np

    given = np.arange(32 * 784, dtype=np.float32).reshape(32, 784) / 1000
    data = bytearray(compile_ttir(MLP, goldens={"mlp": {"input_0": given}}))
    where = bytes(data).find(given.tobytes()[4000:4064])
    assert where > 0
    data[where + 2] ^= 0x01
    path = tmp_path / "flipped.ttnn"
    path.write_bytes(data)
    for command in ("read", "check", "run"):
        code, results = api(command, tmp_path, binary=str(path))
        assert code == 1 and "corrupted flatbuffer (checksum" in results[0]["exception"]


def test_output_into_a_closed_pipe_ends_quietly(mlp_binary):
    reader = subprocess.Popen([sys.executable, "-c", "import sys, ttrt; sys.exit(ttrt.main())", "read",
                               str(mlp_binary)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT / "tools")
    reader.stdout.read(10)
    reader.stdout.close()
    assert b"Traceback" not in reader.stderr.read()
    reader.wait()


def test_check_and_run_agree_on_the_system_a_mesh_binary_needs(tmp_path):
    path = tmp_path / "mesh.ttnn"
    path.write_bytes(compile_ttir(MLP, pipeline_options="mesh-shape=1,2"))
    for command in ("check", "run"):
        code, results = api(command, tmp_path, binary=str(path))
        assert code == 0, results
    code, results = api("check", tmp_path, binary=str(path), mesh_shape="1x1")
    assert code == 1 and "the binary needs a 1x2 mesh, the system has 1 chip(s)" in results[0]["exception"]


def test_op_debug_strings_are_the_printed_ops():
    """The binary's per-op debug strings (a tail rendered once per distinct signature, the head with the printer's
    SSA names) equal what the printer writes for each op of every lit file with TTNN ops (what binaries hold)."""
    import io

    from xdsl.dialects.func import FuncOp

    from ttmlir.asm import TTPrinter
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context
    from ttmlir.target.ttnn import ProgramWriter

    checked = 0
    for path in sorted(p for p in (ROOT / "test" / "lit").rglob("*.mlir") if "Output" not in p.parts):
        text = path.read_text()
        if "ttnn." not in text:
            continue
        for chunk in text.split("// -----"):
            try:
                module, _ = load_module(make_context(True), chunk, str(path))
            except Exception:  # the negative tests' inputs
                continue
            for func in [o for o in module.walk() if isinstance(o, FuncOp) and o.body.blocks]:
                writer = ProgramWriter(func, {})
                printer = TTPrinter(stream=io.StringIO(), use_aliases=False, print_debuginfo=False)
                for op in func.body.block.ops:
                    printer.stream = io.StringIO()
                    printer.print_op(op)
                    assert writer.debug_text(op) == printer.stream.getvalue()
                    checked += 1
    assert checked > 1000
