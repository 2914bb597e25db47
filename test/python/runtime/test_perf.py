"""`ttrt perf`: tt-metal's full ops_perf_results.csv, a Perfetto trace and a summary; the perf model's timeline."""

import csv
import json
from pathlib import Path

import pytest

from ttmlir.compiler import compile_ttir
from ttmlir.runtime import perf
from ttrt.common.api import API

ROOT = Path(__file__).resolve().parents[3]

# tt-metal's profiler report header (ttrt's documentation lists it)
SEED_COLUMNS = (
    "OP CODE,OP TYPE,GLOBAL CALL COUNT,DEVICE ID,ATTRIBUTES,MATH FIDELITY,CORE COUNT,PARALLELIZATION STRATEGY,HOST START TS,"
    "HOST END TS,HOST DURATION [ns],DEVICE FW START CYCLE,DEVICE FW END CYCLE,OP TO OP LATENCY [ns],OP TO OP LATENCY "
    "BR/NRISC START [ns],DEVICE FW DURATION [ns],DEVICE KERNEL DURATION [ns],DEVICE KERNEL DURATION DM START [ns],"
    "DEVICE KERNEL DURATION PER CORE MIN [ns],DEVICE KERNEL DURATION PER CORE MAX [ns],DEVICE KERNEL DURATION PER CORE "
    "AVG [ns],DEVICE KERNEL FIRST TO LAST START [ns],DEVICE BRISC KERNEL DURATION [ns],DEVICE NCRISC KERNEL DURATION "
    "[ns],DEVICE TRISC0 KERNEL DURATION [ns],DEVICE TRISC1 KERNEL DURATION [ns],DEVICE TRISC2 KERNEL DURATION [ns],"
    "DEVICE ERISC KERNEL DURATION [ns],DEVICE COMPUTE CB WAIT FRONT [ns],DEVICE COMPUTE CB RESERVE BACK [ns],DISPATCH "
    "TOTAL CQ CMD OP TIME [ns],DISPATCH GO SEND WAIT TIME [ns],INPUT_0_W,INPUT_0_Z,INPUT_0_Y,INPUT_0_X,INPUT_0_LAYOUT,"
    "INPUT_0_DATATYPE,INPUT_0_MEMORY,OUTPUT_0_W,OUTPUT_0_Z,OUTPUT_0_Y,OUTPUT_0_X,OUTPUT_0_LAYOUT,OUTPUT_0_DATATYPE,"
    "OUTPUT_0_MEMORY,METAL TRACE ID,METAL TRACE REPLAY SESSION ID,COMPUTE KERNEL SOURCE,COMPUTE KERNEL HASH,DATA "
    "MOVEMENT KERNEL SOURCE,DATA MOVEMENT KERNEL HASH,BRISC MAX KERNEL SIZE [B],NCRISC MAX KERNEL SIZE [B],TRISC 0 MAX "
    "KERNEL SIZE [B],TRISC 1 MAX KERNEL SIZE [B],TRISC 2 MAX KERNEL SIZE [B],ERISC MAX KERNEL SIZE [B],PM IDEAL [ns],"
    "PM COMPUTE [ns],PM BANDWIDTH [ns],PM REQ I BW,PM REQ O BW,PM FPU UTIL (%),NOC UTIL (%),DRAM BW UTIL (%),NPE CONG "
    "IMPACT (%),LOC,CONST_EVAL_OP,PROGRAM_METADATA").split(",")


@pytest.fixture(scope="module")
def profiled(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("perf")
    binary = tmp / "mlp.ttnn"
    binary.write_bytes(compile_ttir((ROOT / "examples" / "mlp.mlir").read_text()))
    API.initialize_apis()
    code, _ = API.Perf(args={"binary": str(binary), "--trace": True, "--artifact-dir": str(tmp / "artifacts"),
                             "--result-file": str(tmp / "perf_results.json")})()
    assert code == 0
    return tmp / "artifacts" / "mlp.ttnn" / "perf"


def test_the_csv_has_every_column_of_tt_metals_report_and_a_device_timeline(profiled):
    with open(profiled / "ops_perf_results.csv", newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == SEED_COLUMNS
        rows = [r for r in reader if r["OP TYPE"] == "tt_dnn_device"]
    assert rows
    end = 0
    for row in rows:  # ops follow each other on the device, each after its op-to-op gap
        start = int(row["DEVICE FW START CYCLE"])
        assert start - end == int(row["OP TO OP LATENCY [ns]"])  # a 1 GHz clock: a cycle per ns
        end = int(row["DEVICE FW END CYCLE"])
        assert end - start == int(row["DEVICE KERNEL DURATION [ns]"])
        assert int(row["PM IDEAL [ns]"]) == max(int(row["PM COMPUTE [ns]"]), int(row["PM BANDWIDTH [ns]"]))
    matmul = next(r for r in rows if r["OP CODE"] == "ttnn.matmul" or r["OP CODE"] == "ttnn.linear")
    assert "math_fidelity" in matmul["ATTRIBUTES"] and float(matmul["PM FPU UTIL (%)"]) > 0


def test_the_trace_nests_each_ops_phases_in_its_span(profiled):
    events = json.loads((profiled / "trace.json").read_text())["traceEvents"]
    ops = [e for e in events if e.get("cat") == "op"]
    phases = [e for e in events if e.get("cat") in ("compute", "data movement")]
    assert ops and phases
    for phase in phases:
        (parent,) = [o for o in ops if phase["name"].startswith(o["name"] + " ") and o["ts"] == phase["ts"]]
        assert phase["ts"] + phase["dur"] <= parent["ts"] + parent["dur"] + 1e-9
    assert all(a["ts"] + a["dur"] <= b["ts"] for a, b in zip(ops, ops[1:]))  # one device: spans do not overlap
    summary = (profiled / "summary.txt").read_text()
    assert "bound by:" in summary and "top" in summary


class T:
    def __init__(self, shape, dtype="bf16", buffer_type="dram"):
        self.shape, self.dtype, self.buffer_type, self.layout = list(shape), dtype, buffer_type, "tile"
        self.size, self.on_device = perf.tiles(self.shape) * (2048 if dtype == "bf16" else 1088), True


def test_fidelity_phases_and_traces_set_the_modelled_time():
    a, b, c = T((1024, 1024)), T((1024, 1024)), T((1024, 1024))
    lofi, hifi4 = (perf.estimate("matmul", "matmul", [a, b], [c], "wormhole_b0", math_fidelity=f)
                   for f in ("lofi", "hifi4"))
    products_per_core = 32 ** 3 // 64
    assert hifi4.compute_ns - lofi.compute_ns == pytest.approx(products_per_core * 48)  # 64 - 16 cycles at 1 GHz
    assert perf.program_ns([lofi], traced=True) < perf.program_ns([lofi], traced=False)
    assert perf.dram_gbps("wormhole_b0", 2048) < perf.dram_gbps("wormhole_b0", 65536) < 288


def test_an_embedding_reads_the_rows_it_gathers_not_the_whole_table():
    indices, out = T((1, 32), "u32"), T((32, 2048))
    small, large = (perf.estimate("embedding", "embedding", [indices, T((rows, 2048))], [out], "wormhole_b0")
                    for rows in (32, 131072))
    assert large.dram_bytes == small.dram_bytes < 3 * out.size
    assert large.kernel_ns == small.kernel_ns


def test_a_ttm_perf_run_traces_each_cores_kernels(tmp_path):
    from ttmlir.compiler import lower
    from ttmlir.target.ttmetal import translate

    text = ('func.func @add(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {\n'
            '  %0 = "ttir.add"(%a, %b) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>\n'
            '  return %0 : tensor<64x128xf32>\n}\n')
    binary = tmp_path / "add.ttm"
    binary.write_bytes(translate(lower(text, "add.mlir", "ttir-to-ttmetal-pipeline", "")))
    API.initialize_apis()
    code, _ = API.Perf(args={"binary": str(binary), "--trace": True, "--artifact-dir": str(tmp_path / "a"),
                             "--result-file": str(tmp_path / "r.json")})()
    assert code == 0
    folder = tmp_path / "a" / "add.ttm" / "perf"
    with open(folder / "ops_perf_results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4  # the inputs' tilizes, the add, the result's untilize (host data crosses row-major)
    row = rows[2]
    assert row["COMPUTE KERNEL SOURCE"] and int(row["DEVICE KERNEL DURATION PER CORE MAX [ns]"]) > 0
    events = json.loads((folder / "trace.json").read_text())["traceEvents"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    cores = {e["args"]["name"] for e in events if e.get("name") == "thread_name" and e["tid"]}
    assert len({name.split()[1] for name in cores}) == int(row["CORE COUNT"])  # "core y,x risc": a track each
    assert {e["tid"] for e in kernels} <= {e["tid"] for e in events if e.get("name") == "thread_name"}
