"""One logical mesh over many MPI ranks (SPMD, lockstep): each rank simulates only its own chips.

Every rank runs the same program on a `RankMeshDevice` of the whole mesh's shape whose `chips` are only the
ones it holds, so its tensors keep one value per local chip and its allocators, values and weights cover those
chips alone. Ops that stay on a chip run as in one process. A collective (`MESH_KERNELS`) first moves, in one
MPI all-to-all, exactly the chips' values each rank lacks (`NEEDS` says which chips' inputs a chip's result
reads), then runs the same kernel as one process does on the whole mesh — chips nobody here needs are shapes
without values (torch's meta device) — and keeps its own chips' results. The same kernel on the same values in
the same order: results equal one process's bit for bit.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Callable, Iterable

import torch

from ttmlir.runtime import RuntimeFailure, ccl, moe_fused
from ttmlir.runtime.device import Chip, MeshDevice
from ttmlir.runtime.distributed.topology import (Mesh, TopologyError, load_mesh_graph, mock_cluster_chips,
                                                 report_failure)
from ttmlir.runtime.kernels import MESH_KERNELS


def _line(t, mesh, chip: int) -> list[int]:
    return next(line for line in ccl.groups(t.clusterAxis, mesh) if chip in line)




def _point_to_point(t, mesh, chip: int) -> Iterable[int]:
    return {chip, ccl.chip_at(list(t.senderCoord), mesh)} if chip == ccl.chip_at(list(t.receiverCoord), mesh) \
        else (chip,)


# For each collective: the chips whose inputs chip `chip`'s results read.
NEEDS: dict[str, Callable] = {
    "distribute_tensor": lambda t, mesh, chip: (chip,),  # each chip cuts its piece from its copy of the host tensor
    "aggregate_tensor": lambda t, mesh, chip: range(mesh[0] * mesh[1]),
    "point_to_point": _point_to_point,
    **dict.fromkeys(("all_gather", "all_reduce", "all_reduce_async", "reduce_scatter", "distributed_rms_norm", "distributed_layer_norm",
                     "all_to_all_dispatch", "all_to_all_dispatch_metadata", "all_to_all_combine", "moe_compute"), _line),
    **dict.fromkeys(("mesh_partition", "moe_expert_token_remap"), lambda t, mesh, chip: (chip,)),
    "selective_reduce_combine": lambda t, mesh, chip: next(line for line in ccl.groups(moe_fused.COMBINE_AXIS, mesh)
                                                           if chip in line),
}
if set(NEEDS) != set(MESH_KERNELS):  # a new mesh kernel needs its row here, or ranks would miss its data
    raise ImportError(f"ttmlir.runtime.distributed.mesh: NEEDS has no row for {sorted(set(MESH_KERNELS) - set(NEEDS))}"
                      f" and rows for no kernel {sorted(set(NEEDS) - set(MESH_KERNELS))}")


@dataclass
class RankContext:
    """This process's place in the launch: its MPI communicator, mesh and chips, and every chip's rank."""

    comm: object
    mesh: Mesh
    host_rank: int
    chips: list[int]
    owner: dict[int, int]  # global chip id -> rank in `comm`
    cluster_arch: str | None = None  # the mock cluster descriptor's architecture, when one is given

    @property
    def rank(self) -> int:
        return self.comm.Get_rank()

    @property
    def size(self) -> int:
        return self.comm.Get_size()

    def where(self) -> str:
        return (f"rank {self.rank} of {self.size} (mesh {self.mesh.mesh_id} host rank {self.host_rank}, "
                f"chips {','.join(map(str, self.chips))})")

    def fail(self, message: str, code: int = 1):
        """End every rank of the launch: this rank's located error, then MPI_Abort (tt-run keeps the first)."""
        report_failure(self.where(), message)
        self.comm.Abort(code)


def from_environment(comm) -> RankContext:
    """The context tt-run's per-rank environment describes (TT_MESH_GRAPH_DESC_PATH, TT_MESH_ID,
    TT_MESH_HOST_RANK, TT_METAL_MOCK_CLUSTER_DESC_PATH); every chip of the mesh must be held by exactly one rank."""
    env = os.environ
    meshes = load_mesh_graph(env["TT_MESH_GRAPH_DESC_PATH"])
    try:
        mesh_id, host_rank = int(env.get("TT_MESH_ID", "0")), int(env.get("TT_MESH_HOST_RANK", "0"))
    except ValueError:
        raise TopologyError("TT_MESH_ID and TT_MESH_HOST_RANK must be numbers") from None
    if mesh_id not in meshes:
        raise TopologyError(f"TT_MESH_ID {mesh_id} names no mesh of {env['TT_MESH_GRAPH_DESC_PATH']}")
    mesh = meshes[mesh_id]
    if not 0 <= host_rank < mesh.num_hosts:
        raise TopologyError(f"TT_MESH_HOST_RANK {host_rank} is outside {mesh.describe()}")
    chips = mesh.host_chips(host_rank)
    cluster_arch = None
    if mock := env.get("TT_METAL_MOCK_CLUSTER_DESC_PATH"):
        cluster_arch, count = mock_cluster_chips(mock)
        if count != len(chips):
            raise TopologyError(f"{mock}: the mock cluster has {count} chip(s), but host rank {host_rank} "
                                         f"of {mesh.describe()} holds {len(chips)}")
    held = comm.allgather(chips)
    owner: dict[int, int] = {}
    for rank, theirs in enumerate(held):
        for chip in theirs:
            if chip in owner:
                raise TopologyError(f"chip {chip} of {mesh.describe()} is held by ranks {owner[chip]} and "
                                             f"{rank}: each host rank must be bound once")
            owner[chip] = rank
    missing = sorted(set(range(mesh.devices[0] * mesh.devices[1])) - set(owner))
    if missing:
        raise TopologyError(f"chips {missing} of {mesh.describe()} are held by no rank")
    return RankContext(comm, mesh, host_rank, chips, owner, cluster_arch)


def _compact(value: torch.Tensor) -> torch.Tensor:
    """A view (a chunk of a bigger tensor) copied out, so that only its own bytes are sent."""
    return value.clone() if value.untyped_storage().nbytes() > value.nbytes else value


class RankMeshDevice(MeshDevice):
    """The whole mesh's shape, this rank's chips: allocation, values and per-chip work cover those alone."""

    def __init__(self, arch: str, mesh_shape: tuple[int, int], context: RankContext):
        mesh = context.mesh
        if tuple(mesh_shape) != mesh.devices:
            raise RuntimeFailure(f"the program runs on a {mesh_shape[0]}x{mesh_shape[1]} mesh, but "
                                 f"{mesh.describe()} in {mesh.path} has {mesh.devices[0]}x{mesh.devices[1]} devices")
        if arch != mesh.arch or context.cluster_arch not in (None, arch):
            raise RuntimeFailure(f"the device is a {arch}, but {mesh.describe()} in {mesh.path} is "
                                 f"{context.cluster_arch if arch == mesh.arch else mesh.arch}")
        super().__init__(arch, mesh_shape)
        self.context = context
        self.chips = [Chip(arch, chip) for chip in context.chips]

    def run_mesh_kernel(self, name: str, kernel, inputs: dict, table):
        ctx, mesh = self.context, self.mesh_shape
        total, mine = mesh[0] * mesh[1], self.chip_ids
        need = NEEDS[name]
        local = {f: dict(zip(mine, values)) for f, values in inputs.items()}
        sends: list[dict] = [{} for _ in range(ctx.size)]
        for chip in range(total):
            dest = ctx.owner[chip]
            if dest != ctx.rank:
                for source in set(need(table, mesh, chip)) & set(mine):
                    sends[dest][source] = {f: _compact(v[source]) for f, v in local.items()}
        # every rank computes every rank's needs alike, so all of them agree whether this exchange happens
        crossing = any(ctx.owner[s] != ctx.owner[c] for c in range(total) for s in need(table, mesh, c))
        if crossing:
            for part in ctx.comm.alltoall(sends):
                for source, fields in part.items():
                    for f, value in fields.items():
                        local[f][source] = value
        full = {f: [values.get(chip) if chip in values else torch.empty_like(next(iter(values.values())),
                                                                               device="meta")
                    for chip in range(total)] for f, values in local.items()}
        out = kernel(full, table, mesh)
        picked = tuple([per_chip[c] for c in mine] for per_chip in out) if isinstance(out, tuple) \
            else [out[c] for c in mine]
        if any(v.is_meta for per_chip in (picked if isinstance(picked, tuple) else (picked,)) for v in per_chip):
            raise RuntimeFailure(f"'ttnn.{name}': the distributed runtime did not fetch every value this rank's chips "
                                 "read (NEEDS is wrong for this op)")
        return picked

    def gather(self, tensor, root: int | None = None) -> list[torch.Tensor] | None:
        """Every chip's value of a tensor, in mesh order, at rank `root` (by default the one holding chip 0, which
        writes reports), None on the others: a device-to-host read of a distributed tensor lands on the rank
        that asked."""
        mine = dict(zip(self.chip_ids, (_compact(v) for v in tensor.chip_values(self.num_chips))))
        parts = self.context.comm.gather(mine, root=self.context.owner[0] if root is None else root)
        if parts is None:
            return None
        merged = {chip: value for part in parts for chip, value in part.items()}
        return [merged[chip] for chip in range(math.prod(self.mesh_shape))]

    def lockstep(self, body: Callable):
        """Run `body`; a failure here ends every rank (the others would wait for this one's data forever)."""
        try:
            return body()
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure must stop the other ranks, reported once
            self.context.fail(str(exc) if isinstance(exc, (RuntimeFailure, ValueError))
                              else f"internal error: {type(exc).__name__}: {exc}")
