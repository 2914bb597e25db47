"""Time and peak memory per rank of one mesh program in one process and under tt-run with 2 and 4 ranks.

    python benchmarks/distributed_bench.py [--program kv_decode|tp_mlp] [--mesh 2x4] [--ranks 1,2,4] [--seq N]

The program (test/python/distributed/programs.py) is compiled once; each run simulates the whole 2x4 mesh, the
ranks splitting it by rows of hosts (2 ranks: a row of chips each; 4 ranks: 1x2 chips each). Every rank reports
the wall time of its run and its peak resident memory (ru_maxrss); the outputs of every run are checked equal
to the one-process run, bit for bit. Needs the `mpi` extra (Open MPI's mpirun, mpi4py, PyYAML).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "python" / "distributed"))

HOSTS = {1: (1, 1), 2: (2, 1), 4: (2, 2)}  # ranks -> host topology of a 2-row mesh


def rank_main(binary_path: str, out: str) -> None:
    """One process (or one rank): run program 0, gather the outputs, report time and peak memory."""
    import torch

    from ttmlir.runtime import distributed
    from ttmlir.runtime.executor import Binary, run_program
    from ttmlir.runtime.session import make_inputs, own_chips

    binary = Binary(binary_path)
    device = distributed.open_mesh(binary.arch(), binary.mesh_shape())
    start = time.perf_counter()
    inputs = own_chips(device, make_inputs(binary, 0, "randn", 0))
    outputs, _ = device.lockstep(lambda: run_program(binary, 0, inputs, device))
    seconds = time.perf_counter() - start
    values = [device.gather(tensor) for tensor in outputs]
    stats = {"seconds": seconds, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
             "chips": device.chip_ids}
    ctx = distributed.context()
    everyone = ctx.comm.gather(stats, root=ctx.owner[0]) if ctx is not None else [stats]
    if distributed.is_root():
        torch.save(values, out + ".pt")
        Path(out + ".json").write_text(json.dumps(everyone))


def launch(binary: Path, ranks: int, mesh: tuple[int, int], work: Path) -> tuple[float, list[dict], Path]:
    out = work / f"run{ranks}"
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               PATH=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    me = [sys.executable, __file__, "--rank-run", str(binary), str(out)]
    if ranks == 1:
        command = me
    else:
        hosts = HOSTS[ranks]
        mgd = work / f"mgd{ranks}.textproto"
        mgd.write_text(f'mesh_descriptors {{ name: "M0" arch: WORMHOLE_B0 device_topology {{ dims: [ {mesh[0]}, '
                       f'{mesh[1]} ] }} host_topology {{ dims: [ {hosts[0]}, {hosts[1]} ] }} channels {{ count: 2 }} }}\n'
                       'top_level_instance { mesh { mesh_descriptor: "M0" mesh_id: 0 } }\n')
        mock = work / f"mock{ranks}.yaml"
        per_rank = mesh[0] * mesh[1] // ranks
        for r in range(ranks):
            (work / f"cluster{r}.yaml").write_text("arch: {" + ", ".join(f"{c}: Wormhole" for c in range(per_rank))
                                                   + "}\n")
        mock.write_text("rank_to_cluster_mock_cluster_desc:\n"
                        + "".join(f"  {r}: cluster{r}.yaml\n" for r in range(ranks)))
        command = [sys.executable, "-c", "import sys, tt_run; sys.exit(tt_run.main())", "-m", str(mgd),
                   "--mock-cluster-rank-binding", str(mock), *me]
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env)
    wall = time.perf_counter() - start
    return wall, json.loads(Path(str(out) + ".json").read_text()), Path(str(out) + ".pt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", default="kv_decode", choices=("kv_decode", "tp_mlp"))
    parser.add_argument("--mesh", default="2x4")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--seq", type=int, default=8192, help="KV-cache length of kv_decode")
    parser.add_argument("--rank-run", nargs=2, metavar=("BINARY", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rank_run:
        rank_main(*args.rank_run)
        return
    import torch

    from programs import PROGRAMS
    from ttmlir.compiler import compile_ttir

    mesh = tuple(int(d) for d in args.mesh.split("x"))
    work = Path(tempfile.mkdtemp(prefix="distributed_bench."))
    # kv_decode: 8 heads of 128 per chip, caches of --seq positions; only the attention output comes back, so
    # what each process holds beyond the (replicated) inputs is its chips' caches and activations
    options = {"seq": args.seq, "hd": 128, "hl": 8, "return_caches": False} if args.program == "kv_decode" else {}
    text = PROGRAMS[args.program](*mesh, **options)
    binary = work / f"{args.program}.ttnn"
    binary.write_bytes(compile_ttir(text, pipeline_options=f"mesh-shape={mesh[0]},{mesh[1]}"))
    print(f"{args.program} on a {mesh[0]}x{mesh[1]} Wormhole mesh ({binary.stat().st_size / 2**20:.1f} MiB binary)")
    print(f"{'ranks':>5} {'wall s':>8} {'run s (max rank)':>17} {'peak RSS MiB per rank':>24}  equal to 1 process")
    reference = None
    for ranks in (int(r) for r in args.ranks.split(",")):
        wall, stats, out = launch(binary, ranks, mesh, work)
        values = torch.load(out)
        reference = values if reference is None else reference
        equal = all(torch.equal(a, b) for x, y in zip(reference, values) for a, b in zip(x, y))
        memory = " ".join(f"{s['peak_rss_mib']:.0f}" for s in stats)
        print(f"{ranks:>5} {wall:>8.2f} {max(s['seconds'] for s in stats):>17.2f} {memory:>24}  "
              f"{'bit for bit' if equal else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
