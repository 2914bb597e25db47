"""tt-run: one mesh over several MPI ranks, each simulating its own chips, equal to one process bit for bit.

The launches need Open MPI's mpirun and mpi4py (the `mpi` and `test` extras); without them those tests skip and
say so. The configuration checks and `--dry-run` need neither.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "distributed"))
from programs import PROGRAMS  # noqa: E402

BIN = Path(sys.executable).parent
TT_RUN = [str(BIN / "tt-run")]


def _mpi_missing() -> str | None:
    if shutil.which("mpirun", path=str(BIN)) is None and shutil.which("mpirun") is None:
        return "Open MPI's mpirun is not installed (pip install 'ttmlir[mpi]')"
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return "mpi4py is not installed (pip install 'ttmlir[mpi]')"
    return None


needs_mpi = pytest.mark.skipif(_mpi_missing() is not None, reason=f"MPI absent: {_mpi_missing()}")


def mgd(tmp: Path, devices: tuple[int, int], hosts: tuple[int, int], name: str = "mgd.textproto") -> Path:
    path = tmp / name
    path.write_text(f"""# {devices[0]}x{devices[1]} Wormhole chips over {hosts[0]}x{hosts[1]} hosts
mesh_descriptors {{
  name: "M0"
  arch: WORMHOLE_B0
  device_topology {{ dims: [ {devices[0]}, {devices[1]} ] }}
  host_topology {{ dims: [ {hosts[0]}, {hosts[1]} ] }}
  channels {{ count: 2 policy: STRICT }}
}}
top_level_instance {{ mesh {{ mesh_descriptor: "M0" mesh_id: 0 }} }}
""")
    return path


def bindings(tmp: Path, ranks: int, mgd_path: Path, extra: str = "") -> Path:
    path = tmp / "rank_bindings.yaml"
    rows = "".join(f"  - rank: {r}\n    mesh_id: 0\n    mesh_host_rank: {r}\n" for r in range(ranks))
    path.write_text(f"rank_bindings:\n{rows}{extra}mesh_graph_desc_path: {mgd_path}\n")
    return path


def env() -> dict:
    out = dict(os.environ, PATH=f"{BIN}:{os.environ.get('PATH', '')}")
    # this sandbox runs as root; Open MPI refuses root unless told it is meant
    out.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return out


def tt_run(*args, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*TT_RUN, *map(str, args)], capture_output=True, text=True, env=env(), timeout=timeout)


def compile_program(tmp: Path, name: str, mesh: tuple[int, int]) -> Path:
    from ttmlir.compiler import compile_ttir

    path = tmp / f"{name}_{mesh[0]}x{mesh[1]}.ttnn"
    path.write_bytes(compile_ttir(PROGRAMS[name](*mesh), pipeline_options=f"mesh-shape={mesh[0]},{mesh[1]}"))
    return path


# ---------------------------------------------------------------------------------------------------------
# configuration: located one-line errors, nothing launched

@pytest.mark.parametrize("binding, message", [
    ("  - rank: 0\n    mesh_id: 0\n    mesh_host_rank: 0\n  - rank: 1\n    mesh_id: 0\n    mesh_host_rank: 2\n",
     "rank_bindings.yaml:5: rank 1 is bound to host rank 2 of mesh 0 ('M0': 1x2 devices over 1x2 hosts), which has "
     "host ranks 0..1"),
    ("  - rank: 0\n    mesh_id: 3\n", "rank_bindings.yaml:2: rank 0 is bound to mesh 3"),
    ("  - rank: 0\n    mesh_id: 0\n    mesh_host_rank: 0\n    env_overrides:\n      TT_VISIBLE_DEVICES: \"0,4\"\n",
     "rank 0: TT_VISIBLE_DEVICES names device 4, but host rank 0 of mesh 0"),
    ("  - rank: 0\n    mesh_id: 0\n    mesh_host_rank: 0\n",
     "host rank 1 of mesh 0 ('M0': 1x2 devices over 1x2 hosts) has no rank bound to it: its chips [1] would not run"),
    ("  - rank: 0\n    mesh_id: 0\n   bad: [\n", "rank_bindings.yaml:4:"),
])
def test_bad_bindings_are_located_errors(tmp_path, binding, message):
    mesh = mgd(tmp_path, (1, 2), (1, 2))
    path = tmp_path / "rank_bindings.yaml"
    path.write_text(f"rank_bindings:\n{binding}mesh_graph_desc_path: {mesh}\n")
    result = tt_run("--rank-binding", path, "--dry-run", sys.executable, "-c", "pass")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tt-run: error: ") and message in lines[0], result.stderr


def test_bad_mesh_graph_descriptor_is_located(tmp_path):
    bad = tmp_path / "bad.textproto"
    bad.write_text('mesh_descriptors {\n  name: "M0"\n  arch: WORMHOLE_B0\n  device_topology { dims: [ 2, 4 ] }\n'
                   '  host_topology { dims: [ 3, 1 ] }\n}\ntop_level_instance { mesh { mesh_descriptor: "M0" } }\n')
    mock = tmp_path / "mock.yaml"
    mock.write_text("rank_to_cluster_mock_cluster_desc:\n  0: mock.yaml\n")
    result = tt_run("-m", bad, "--mock-cluster-rank-binding", mock, "--dry-run", sys.executable)
    assert result.returncode == 1
    assert result.stderr.strip() == (f"tt-run: error: {bad}:1: mesh 'M0': 2x4 devices do not split evenly over "
                                     "3x1 hosts")


def test_dry_run_prints_one_application_context_per_rank(tmp_path):
    mesh = mgd(tmp_path, (2, 4), (1, 2))
    path = bindings(tmp_path, 2, mesh, "global_env:\n  SHARED: shared_value\n")
    result = tt_run("--rank-binding", path, "--mpi-args", "--mca btl self,vader", "--dry-run", "ttrt", "run", "x.ttnn")
    assert result.returncode == 0, result.stderr
    words = result.stdout.split()
    assert any(words[i:i + 3] == ["--mca", "btl", "self,vader"] for i in range(len(words)))
    contexts = result.stdout.split(" : ")
    assert len(contexts) == 2
    for rank, context in enumerate(contexts):
        assert f"TT_MESH_HOST_RANK={rank}" in context and "TT_MESH_ID=0" in context
        assert f"TT_MESH_GRAPH_DESC_PATH={mesh}" in context and "SHARED=shared_value" in context
        assert context.rstrip().endswith("-m tt_run.rank -- ttrt run x.ttnn")


# ---------------------------------------------------------------------------------------------------------
# launches

RUNNER = HERE / "distributed" / "run_mesh_program.py"
MESHES = ((1, 2), (2, 4))
# A decode step whose KV caches stay on the chips: 16 MiB of them a chip, 128 MiB over the 2x4 mesh.
KV_BIG = {"seq": 2048, "hd": 128, "hl": 8}
KV_BIG_PER_CHIP = 2 * KV_BIG["hl"] * KV_BIG["seq"] * KV_BIG["hd"] * 4  # the chip's slices of both caches, f32

# The launches below share two module fixtures; one xdist worker takes the module, so each launch happens once.
pytestmark = pytest.mark.xdist_group("tt_run")


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    """Every program compiled for each mesh (and the big-cache decode step for the 2x4 mesh); every chip's outputs
    of each run in one process, and that process's peak memory."""
    from programs import kv_cache_decode
    from ttmlir.compiler import compile_ttir

    tmp = tmp_path_factory.mktemp("programs")
    binaries = {(name, mesh): compile_program(tmp, name, mesh) for name in sorted(PROGRAMS) for mesh in MESHES}
    binaries["kv_big", (2, 4)] = tmp / "kv_big_2x4.ttnn"
    binaries["kv_big", (2, 4)].write_bytes(compile_ttir(kv_cache_decode(2, 4, **KV_BIG, return_caches=False),
                                                        pipeline_options="mesh-shape=2,4"))
    outs = {key: tmp / f"{binary.stem}.one.pt" for key, binary in binaries.items()}
    rss = tmp / "rss.json"
    subprocess.run([sys.executable, RUNNER, "--rss", rss,
                    *(str(p) for key in binaries for p in (binaries[key], outs[key]))], check=True, env=env())
    return binaries, {key: torch.load(out) for key, out in outs.items()}, json.loads(rss.read_text())


@pytest.fixture(scope="module")
def launches(programs, tmp_path_factory):
    """(devices, hosts) -> every program of that mesh run by one tt-run launch with a rank per host: its outputs
    (every chip's) by program name, and each rank's peak memory. Each launch happens once."""
    binaries, done = programs[0], {}

    def launch(devices: tuple[int, int], hosts: tuple[int, int]):
        if (devices, hosts) not in done:
            tmp = tmp_path_factory.mktemp("launch")
            names = sorted(name for name, mesh in binaries if mesh == devices)
            mesh = mgd(tmp, devices, hosts)
            outs, rss = [tmp / f"{name}.pt" for name in names], tmp / "rss.json"
            result = tt_run("--rank-binding", bindings(tmp, hosts[0] * hosts[1], mesh), "--timeout", 400,
                            sys.executable, RUNNER, "--rss", rss,
                            *(str(p) for name, out in zip(names, outs) for p in (binaries[name, devices], out)),
                            timeout=500)
            assert result.returncode == 0, result.stderr
            done[devices, hosts] = ({name: torch.load(out) for name, out in zip(names, outs)},
                                    json.loads(rss.read_text()))
        return done[devices, hosts]

    return launch


def assert_bitwise_equal(one: list, many: list) -> None:
    assert len(one) == len(many)
    for per_chip_one, per_chip_many in zip(one, many):
        assert len(per_chip_one) == len(per_chip_many)
        for a, b in zip(per_chip_one, per_chip_many):
            assert a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)


@needs_mpi
@pytest.mark.parametrize("devices, hosts", [
    ((1, 2), (1, 2)),  # a chip per rank
    ((2, 4), (2, 1)),  # a row of four chips per rank: the all_gather over rows crosses ranks
    ((2, 4), (2, 2)),  # two chips per rank: the all_reduce over columns crosses ranks too
], ids=["1x2-2ranks", "2x4-2ranks", "2x4-4ranks"])
def test_mesh_over_ranks_equals_one_process(programs, launches, devices, hosts):
    reference = programs[1]
    outputs, _ = launches(devices, hosts)
    for name, result in outputs.items():
        assert_bitwise_equal(reference[name, devices], result)


@needs_mpi
def test_memory_per_rank_falls_as_ranks_grow(programs, launches):
    """The 2x4 mesh's big-cache decode step over one process, two ranks and four: a rank holding half the chips,
    then a quarter, peaks that much lower (its outputs are equal bit for bit, above)."""
    one = programs[2]
    two, four = launches((2, 4), (2, 1))[1], launches((2, 4), (2, 2))[1]
    assert [len(one), len(two), len(four)] == [1, 2, 4]
    # each halving of the chips a process holds drops their caches' share of its peak; half of it must show
    one, two, four = max(one), max(two), max(four)
    assert two < one - 4 * KV_BIG_PER_CHIP // 2 and four < two - 2 * KV_BIG_PER_CHIP // 2, (one, two, four)


@needs_mpi
def test_ttrt_run_and_perf_under_tt_run_report_as_one_process(tmp_path, programs):
    """`ttrt perf` over two ranks: chip 0's outputs, the golden-free PASS and one perf report with every chip's
    rows, as one process writes them."""
    binary = programs[0]["tp_mlp", (1, 2)]
    one = subprocess.run([BIN / "ttrt", "perf", binary, "--save-artifacts", "--artifact-dir", tmp_path / "one"],
                         capture_output=True, text=True, env=env())
    assert one.returncode == 0, one.stderr
    mesh = mgd(tmp_path, (1, 2), (1, 2))
    for rank in range(2):
        (tmp_path / f"cluster{rank}.yaml").write_text("arch: {0: Wormhole}\n")
    mock = tmp_path / "mock.yaml"
    mock.write_text("rank_to_cluster_mock_cluster_desc:\n  0: cluster0.yaml\n  1: cluster1.yaml\n")
    two = tt_run("-m", mesh, "--mock-cluster-rank-binding", mock, "--timeout", 400, BIN / "ttrt", "perf", binary,
                 "--save-artifacts", "--artifact-dir", tmp_path / "two", "--result-file", tmp_path / "two.json")
    assert two.returncode == 0, two.stderr
    assert two.stdout.count("PASS") == 1  # one rank reports
    folder = lambda root: root / binary.name  # noqa: E731
    for name in ("program_0/output_0.pt",):
        assert torch.equal(torch.load(folder(tmp_path / "one") / name), torch.load(folder(tmp_path / "two") / name))
    rows = {}
    for which in ("one", "two"):
        import csv

        with open(folder(tmp_path / which) / "perf" / "ops_perf_results.csv") as f:
            rows[which] = [(r["OP CODE"], r["DEVICE ID"], r["DEVICE KERNEL DURATION [ns]"]) for r in csv.DictReader(f)]
    assert rows["one"] == rows["two"] and {device for _, device, _ in rows["two"]} == {"0", "1"}


# ---------------------------------------------------------------------------------------------------------
# failures: one located line, a non-zero exit, no rank left behind

def _mock(tmp: Path, chips_per_rank: list[int]) -> Path:
    for rank, chips in enumerate(chips_per_rank):
        (tmp / f"c{rank}.yaml").write_text("arch: {" + ", ".join(f"{c}: Wormhole" for c in range(chips)) + "}\n")
    mock = tmp / "mock.yaml"
    mock.write_text("rank_to_cluster_mock_cluster_desc:\n" + "".join(f"  {r}: c{r}.yaml\n"
                                                                      for r in range(len(chips_per_rank))))
    return mock


@needs_mpi
def test_a_rank_whose_chips_do_not_match_stops_every_rank(tmp_path):
    mesh = mgd(tmp_path, (1, 2), (1, 2))
    program = "from ttmlir.runtime import distributed; distributed.context(); print('ran')"
    result = tt_run("-m", mesh, "--mock-cluster-rank-binding", _mock(tmp_path, [1, 4]), "--timeout", 120,
                    sys.executable, "-c", program)
    assert result.returncode != 0 and "ran" not in result.stdout
    assert result.stderr.strip().splitlines() == [
        f"tt-run: error: rank 1 of 2: {tmp_path / 'c1.yaml'}: the mock cluster has 4 chip(s), but host rank 1 of "
        "mesh 0 ('M0': 1x2 devices over 1x2 hosts) holds 1"]


@needs_mpi
def test_a_rank_that_dies_ends_the_job(tmp_path):
    mesh = mgd(tmp_path, (1, 2), (1, 2))
    program = ("import os, signal; from mpi4py import MPI\n"
               "if os.environ['TT_MESH_HOST_RANK'] == '1': os.kill(os.getpid(), signal.SIGKILL)\n"
               "MPI.COMM_WORLD.barrier()")
    result = tt_run("--rank-binding", bindings(tmp_path, 2, mesh), "--timeout", 120, sys.executable, "-c", program)
    assert result.returncode not in (0, 124)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("tt-run: error: rank 1 (mesh 0 host rank 1): ") and \
        line.endswith("died of signal 9 (SIGKILL)"), result.stderr


@needs_mpi
def test_timeout_stops_every_rank(tmp_path):
    mesh = mgd(tmp_path, (1, 2), (1, 2))
    marker = tmp_path / "pids"
    program = f"import os, time; open({str(marker)!r}, 'a').write(f'{{os.getpid()}}\\n'); time.sleep(600)"
    result = tt_run("--rank-binding", bindings(tmp_path, 2, mesh), "--timeout", 6, sys.executable, "-c", program,
                    timeout=120)
    assert result.returncode == 124
    assert result.stderr.strip().splitlines()[-1] == ("tt-run: error: timed out after 6 s (--timeout): every rank "
                                                      "was stopped")
    for pid in marker.read_text().split():
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_an_abort_notice_ahead_of_the_ranks_own_line_is_not_the_error():
    """Open MPI may forward its MPI_ABORT notice, tagged as the aborting rank's output, before that rank's own
    located line: the user sees the located line alone, the notice is kept for the summary; a ruled block a
    program prints itself passes through."""
    import io

    from tt_run import _relay

    rule = "-" * 74
    notice = [rule, "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD", "  Errorcode: 1", rule]
    own = ["program output", rule, "a table of its own", rule]
    lines = [f"[1,0]<stderr>: {text}" for text in own] + [f"[1,1]<stderr>: {text}" for text in notice] + \
        ["[1,1]<stderr>: tt-run: error: rank 1 of 2: c1.yaml: the mock cluster has 4 chip(s)"]
    out, state = io.StringIO(), {"failure": None, "notices": [], "verbose": False}
    _relay(io.BytesIO("".join(line + "\n" for line in lines).encode()), out, state)
    assert out.getvalue().splitlines() == [*own, "tt-run: error: rank 1 of 2: c1.yaml: the mock cluster has 4 chip(s)"]
    assert state["failure"].startswith("tt-run: error: rank 1 of 2") and len(state["notices"]) == len(notice)


def test_a_stray_nul_in_forwarded_output_is_dropped():
    """Open MPI's output forwarding can put a NUL ahead of a rank's line (seen once in a clean clone's run): the
    user's error line, and the failure it names, carry none."""
    import io

    from tt_run import _relay

    line = "[1,1]<stderr>: \x00tt-run: error: rank 1 of 2: c1.yaml: the mock cluster has 4 chip(s)\n"
    out, state = io.StringIO(), {"failure": None, "notices": [], "verbose": False}
    _relay(io.BytesIO(line.encode()), out, state)
    assert out.getvalue() == "tt-run: error: rank 1 of 2: c1.yaml: the mock cluster has 4 chip(s)\n"
    assert state["failure"] == out.getvalue().strip()
