"""Scale-out: a process started by `tt-run` (one MPI rank) simulates only its own chips of the mesh.

Outside tt-run nothing here is used and MPI is never imported: one process simulates the whole mesh. Under
tt-run (`TT_MESH_GRAPH_DESC_PATH` set and an MPI launcher's rank variables present), `open_mesh` gives a
`RankMeshDevice` (`mesh.py`) over the rank's chips, and the ranks exchange data through mpi4py.
"""

from __future__ import annotations

import os
import sys

from ttmlir.runtime.distributed.topology import report_failure
from ttmlir.runtime.ranks import RANK_VARIABLES

_context = None


def launched() -> bool:
    """True in a process tt-run started: a mesh graph descriptor in the environment and an MPI launcher's ranks."""
    return bool(os.environ.get("TT_MESH_GRAPH_DESC_PATH")) and any(v in os.environ for v in RANK_VARIABLES)


def context():
    """This rank's `RankContext` (MPI initialized on first use), or None when not launched by tt-run."""
    global _context
    if _context is None and launched():
        from ttmlir.cli import UserError

        try:
            from mpi4py import MPI
        except ImportError:
            raise UserError("this process was started by tt-run, which needs mpi4py: pip install 'ttmlir[mpi]'") \
                from None
        from ttmlir.runtime.distributed.mesh import from_environment
        from ttmlir.runtime.distributed.topology import TopologyError

        comm = MPI.COMM_WORLD
        _abort_on_error()
        try:
            _context = from_environment(comm)
        except TopologyError as exc:
            report_failure(f"rank {comm.Get_rank()} of {comm.Get_size()}", str(exc))
            comm.Abort(1)
    return _context


def _abort_on_error() -> None:
    """A rank that ends with an uncaught exception stops every rank (MPI_Abort at exit), instead of leaving the
    others waiting for it in a collective forever."""
    from mpi4py.run import set_abort_status

    previous = sys.excepthook

    def hook(kind, value, traceback):
        previous(kind, value, traceback)
        set_abort_status(1)

    sys.excepthook = hook


def finish(code: int) -> int:
    """A tool's exit code; under tt-run a non-zero one stops the other ranks too (MPI_Abort at exit)."""
    if code and _context is not None:
        from mpi4py.run import set_abort_status

        set_abort_status(code)
    return code


def open_mesh(arch: str, mesh_shape: tuple[int, int]):
    """The device a program runs on: the whole mesh in this process, or under tt-run this rank's part of it."""
    from ttmlir.runtime.device import MeshDevice

    ctx = context()
    if ctx is None:
        return MeshDevice(arch, mesh_shape)
    from ttmlir.runtime import RuntimeFailure
    from ttmlir.runtime.distributed.mesh import RankMeshDevice

    try:
        return RankMeshDevice(arch, tuple(mesh_shape), ctx)
    except RuntimeFailure as exc:  # every rank finds the same mismatch: each stops, tt-run reports it once
        ctx.fail(str(exc))


def is_root() -> bool:
    """Whether this process writes reports and artifacts: the only one, or under tt-run the rank holding chip 0
    (whose values one process reports as a mesh tensor's, and compares with goldens)."""
    ctx = context()
    return ctx is None or ctx.owner[0] == ctx.rank
