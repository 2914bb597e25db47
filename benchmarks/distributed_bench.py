"""Time and peak memory per rank of one mesh program in one process and under tt-run with more ranks.

    python benchmarks/distributed_bench.py [--program kv_decode|tp_mlp|collectives] [--mesh 2x4] [--ranks 1,2,4]
    python benchmarks/distributed_bench.py --mlir MODEL.mlir [--ranks 1,2,4]

The program is one of the distributed tests' (test/python/tools/distributed/programs.py) or, with `--mlir`, a
TTIR file such as one of upstream tt-mlir's tensor-parallel model graphs (test/ttmlir/models); its mesh is
`--mesh`, or the `ttcore.meshes` the file declares. It is compiled once (`--ttir-to-ttnn-backend-pipeline` with
`mesh-shape`); "1 rank" runs it in one plain process, N ranks under tt-run (a mock cluster on this machine) with
the mesh's chips split over the ranks by rows first (a 2x4 mesh: 2 ranks hold a row of four chips each, 4 ranks
1x2 chips each). Every rank reports the wall time of its run, its peak resident memory (ru_maxrss, the
interpreter and torch included) and the bytes of the input values it holds; every chip's value of every output
of each run is compared with the one-process run, bit for bit. Exit status 1 when one differs.
Needs the `mpi` extra (Open MPI's mpirun, mpi4py) for more than one rank.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS_DIR = ROOT / "test" / "python" / "tools" / "distributed"


def host_topology(mesh: tuple[int, int], ranks: int) -> tuple[int, int]:
    """How `ranks` hosts tile the mesh: as many rows of hosts as divide the mesh's rows, then columns."""
    for host_rows in range(min(ranks, mesh[0]), 0, -1):
        if mesh[0] % host_rows == 0 and ranks % host_rows == 0 and mesh[1] % (ranks // host_rows) == 0:
            return host_rows, ranks // host_rows
    raise SystemExit(f"distributed_bench: error: a {mesh[0]}x{mesh[1]} mesh does not split over {ranks} ranks")


def _held_bytes(inputs: list) -> int:
    """Bytes of the distinct tensors (by storage) among a rank's inputs."""
    seen: dict[int, int] = {}
    for value in inputs:
        for tensor in value if isinstance(value, list) else [value]:
            storage = tensor.untyped_storage()
            seen[storage.data_ptr()] = storage.nbytes()
    return sum(seen.values())


def rank_main(binary_path: str, out: str) -> None:
    """One process (or one rank): run program 0, gather every chip's outputs, report time and peak memory."""
    import torch

    from ttmlir.runtime import distributed
    from ttmlir.runtime.executor import Binary, run_program
    from ttmlir.runtime.session import make_inputs, own_chips

    binary = Binary(binary_path)
    device = distributed.open_mesh(binary.arch(), binary.mesh_shape())
    start = time.perf_counter()
    inputs = own_chips(device, make_inputs(binary, 0, "randn", 0))
    held = _held_bytes(inputs)
    outputs, _ = device.lockstep(lambda: run_program(binary, 0, inputs, device))
    seconds = time.perf_counter() - start
    values = [device.gather(tensor) for tensor in outputs]
    stats = {"seconds": seconds, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
             "inputs_mib": held / 2**20, "chips": device.chip_ids}
    ctx = distributed.context()
    everyone = ctx.comm.gather(stats, root=ctx.owner[0]) if ctx is not None else [stats]
    if distributed.is_root():
        torch.save(values, out + ".pt")
        Path(out + ".json").write_text(json.dumps(everyone))


def launch(binary: Path, ranks: int, mesh: tuple[int, int], work: Path, timeout: float) -> tuple[float, list, Path]:
    out = work / f"run{ranks}"
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               PATH=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    me = [sys.executable, __file__, "--rank-run", str(binary), str(out)]
    if ranks == 1:
        command = me
    else:
        hosts = host_topology(mesh, ranks)
        mgd = work / f"mgd{ranks}.textproto"
        mgd.write_text(f'mesh_descriptors {{ name: "M0" arch: WORMHOLE_B0 device_topology {{ dims: [ {mesh[0]}, '
                       f'{mesh[1]} ] }} host_topology {{ dims: [ {hosts[0]}, {hosts[1]} ] }} channels {{ count: 2 }} }}\n'
                       'top_level_instance { mesh { mesh_descriptor: "M0" mesh_id: 0 } }\n')
        mock = work / f"mock{ranks}.yaml"
        per_rank = mesh[0] * mesh[1] // ranks
        for r in range(ranks):
            (work / f"cluster{ranks}_{r}.yaml").write_text(
                "arch: {" + ", ".join(f"{c}: Wormhole" for c in range(per_rank)) + "}\n")
        mock.write_text("rank_to_cluster_mock_cluster_desc:\n"
                        + "".join(f"  {r}: cluster{ranks}_{r}.yaml\n" for r in range(ranks)))
        command = [sys.executable, "-c", "import sys, tt_run; sys.exit(tt_run.main())", "-m", str(mgd),
                   "--mock-cluster-rank-binding", str(mock), "--timeout", f"{timeout:g}", *me]
    start = time.perf_counter()
    result = subprocess.run(command, env=env)
    if result.returncode:
        raise SystemExit(f"distributed_bench: error: the run with {ranks} rank(s) failed (exit {result.returncode})")
    wall = time.perf_counter() - start
    return wall, json.loads(Path(str(out) + ".json").read_text()), Path(str(out) + ".pt")


def declared_mesh(text: str, path: str) -> tuple[int, int]:
    """The mesh a TTIR file declares (`ttcore.meshes = #ttcore.meshes<[<"mesh" = RxC>]>`)."""
    found = re.search(r'ttcore\.meshes<\[<"[^"]*"\s*=\s*(\d+)x(\d+)>', text)
    if found is None:
        raise SystemExit(f"distributed_bench: error: {path}: declares no ttcore.meshes; give --mesh")
    return int(found.group(1)), int(found.group(2))


def parse_mesh(value: str) -> tuple[int, int]:
    found = re.fullmatch(r"(\d+)x(\d+)", value)
    if found is None:
        raise argparse.ArgumentTypeError(f"{value!r}: expected ROWSxCOLS, e.g. 2x4")
    return int(found.group(1)), int(found.group(2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--program", choices=("kv_decode", "tp_mlp", "collectives"),
                       help="one of the distributed tests' programs (default: kv_decode)")
    which.add_argument("--mlir", metavar="FILE", help="a TTIR file to compile and run instead")
    parser.add_argument("--mesh", type=parse_mesh, help="ROWSxCOLS (default: 2x4, or the --mlir file's mesh)")
    parser.add_argument("--ranks", default="1,2,4", help="comma-separated rank counts; 1 is one plain process")
    parser.add_argument("--seq", type=int, default=8192, help="KV-cache length of kv_decode (default: 8192)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds a tt-run launch may take")
    parser.add_argument("--rank-run", nargs=2, metavar=("BINARY", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rank_run:
        rank_main(*args.rank_run)
        return 0
    try:
        counts = [int(r) for r in args.ranks.split(",")]
    except ValueError:
        parser.error(f"--ranks {args.ranks!r}: expected numbers separated by commas")
    if not counts or min(counts) < 1:
        parser.error(f"--ranks {args.ranks!r}: every count must be 1 or more")
    if args.mlir:
        try:
            text = Path(args.mlir).read_text()
        except OSError as exc:
            raise SystemExit(f"distributed_bench: error: {args.mlir}: {exc.strerror}") from None
        mesh, name = args.mesh or declared_mesh(text, args.mlir), Path(args.mlir).stem
    else:
        sys.path.insert(0, str(PROGRAMS_DIR))
        from programs import PROGRAMS

        mesh, name = args.mesh or (2, 4), args.program or "kv_decode"
        # kv_decode: 8 heads of 128 per chip, caches of --seq positions; only the attention output comes back, so
        # what each process holds beyond the (replicated) inputs is its chips' caches and activations
        options = {"seq": args.seq, "hd": 128, "hl": 8, "return_caches": False} if name == "kv_decode" else {}
        text = PROGRAMS[name](*mesh, **options)
    for ranks in counts:
        host_topology(mesh, ranks)  # refuse a split the mesh does not allow before compiling
    with tempfile.TemporaryDirectory(prefix="distributed_bench.") as tmp:
        return measure(text, name, mesh, counts, Path(tmp), args.mlir, args.timeout)


def measure(text: str, name: str, mesh: tuple[int, int], counts: list[int], work: Path, source: str | None,
            timeout: float) -> int:
    import torch

    from ttmlir.compiler import compile_ttir

    binary = work / f"{name}.ttnn"
    start = time.perf_counter()
    binary.write_bytes(compile_ttir(text, source or name, pipeline_options=f"mesh-shape={mesh[0]},{mesh[1]}"))
    print(f"{name} on a {mesh[0]}x{mesh[1]} Wormhole mesh ({binary.stat().st_size / 2**20:.1f} MiB binary, "
          f"compiled in {time.perf_counter() - start:.1f} s)")
    print(f"{'ranks':>5} {'hosts':>5} {'wall s':>7} {'run s per rank':>18} {'peak RSS MiB per rank':>24} "
          f"{'inputs MiB per rank':>22}  outputs vs 1 process", flush=True)
    reference, differ = None, False
    for ranks in counts:
        wall, stats, out = launch(binary, ranks, mesh, work, timeout)
        values = torch.load(out)
        reference = values if reference is None else reference
        equal = len(values) == len(reference) and all(
            len(x) == len(y) and all(a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
                                     for a, b in zip(x, y)) for x, y in zip(reference, values))
        differ |= not equal
        hosts = "x".join(map(str, host_topology(mesh, ranks)))
        column = lambda key, digits: " ".join(f"{s[key]:.{digits}f}" for s in stats)  # noqa: E731
        print(f"{ranks:>5} {hosts:>5} {wall:>7.1f} {column('seconds', 1):>18} {column('peak_rss_mib', 0):>24} "
              f"{column('inputs_mib', 0):>22}  "
              f"{'bit for bit' if equal else 'DIFFERENT'} ({sum(len(v) for v in values)} chip values)", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
