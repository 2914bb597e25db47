"""`--d2m-schedule-dma`: a generic of one data-movement region and one compute region has its DMA spread over the
chip's data-movement cores, as upstream's pass does.

The shard-level DMA ops of the region (`d2m.remote_load`, `d2m.remote_store`, `d2m.local_copy`, in the region and
its loops) are counted per CB port (their CB's `d2m.get_cb`); the ports go, busiest first, to the least loaded of
`min(ports, cores)` threads. Each thread is a copy of the region keeping only its ports' DMA ops. On a chip of two
data-movement cores (Wormhole, Blackhole) each core drives its own NoC, and the thread with the larger multicast DRAM
reads, else more DRAM reads than writes, gets NoC 0 (dm_core 1); on six cores thread i is dm_core i. A region
with DMA for one port stays one thread, on dm_core 0 if it writes DRAM and 1 otherwise (0 on six cores).
Semaphore updates or resets would be made by every copy, so a region holding them is refused.
`num-dm-cores` overrides the chip's core count (2 or 6; 1 leaves generics as they are)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, MemRefType, ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_cb import GetCBOp, ThreadAttr
from ttmlir.dialects.d2m_dma import LocalCopyOp, SemaphoreIncOp, SemaphoreSetOp, SemaphoreWaitOp
from ttmlir.errors import PassFailure, derive

SHARD_DMA = (d2m.RemoteLoadOp, d2m.RemoteStoreOp, LocalCopyOp)
# why each semaphore op cannot be copied into every thread
SHARED_SEMAPHORE = {"semaphore_inc": "increment", "semaphore_set": "set"}


def _port(op: Operation) -> int | None:
    """The CB port of a shard-level DMA op in explicit-CB form."""
    cb = op.dst_cb if isinstance(op, LocalCopyOp) else op.cb
    owner = getattr(cb, "owner", None)
    return owner.cb_operand_idx.value.data if isinstance(owner, GetCBOp) else None


def _dma_ops(block: Block) -> list[tuple[Operation, int]]:
    found = []
    for op in block.ops:
        if isinstance(op, scf.ForOp):
            found += _dma_ops(op.body.block)
        elif isinstance(op, SHARD_DMA) and (port := _port(op)) is not None:
            found.append((op, port))
    return found


def _check_semaphores(block: Block) -> None:
    for op in block.walk():
        if isinstance(op, (SemaphoreIncOp, SemaphoreSetOp)):
            verb = SHARED_SEMAPHORE[op.name[len("d2m."):]]
            raise PassFailure(op, f"{op.name[len('d2m.'):]} is not supported in regions that will be replicated "
                                  f"across multiple threads, as all threads would {verb} the semaphore, creating a "
                                  "race condition on the shared semaphore.")
        if isinstance(op, SemaphoreWaitOp) and op.reset_value is not None:
            raise PassFailure(op, "semaphore_wait with reset is not supported in regions that will be replicated "
                                  "across multiple threads, as all threads would execute the reset, creating a race "
                                  "condition on the shared semaphore.")


def _space(value) -> str | None:
    space = getattr(value.type, "memory_space", None)
    return getattr(getattr(space, "data", None), "value", None)


def _shard_bytes(t: MemRefType) -> int:
    shape = t.get_shape()
    element = t.element_type
    size = hardware.tile_bytes(element.dtype) if isinstance(element, ttcore.TileType) else element.bitwidth // 8
    return math.prod(shape[len(shape) // 2:]) * size


def _noc_cores(threads: list[set[int]], dma: list[tuple[Operation, int]]) -> list[int]:
    """The dm_core of each of two threads: the one with the larger multicast DRAM read, else the larger DRAM read
    bias (reads +2, writes -1), drives NoC 0 (dm_core 1)."""
    scores = [(0, 0), (0, 0)]
    for op, port in dma:
        for t, ports in enumerate(threads):
            if port not in ports:
                continue
            mcast, bias = scores[t]
            if isinstance(op, d2m.RemoteLoadOp) and _space(op.source) == "dram":
                if op.mcast_shape or op.mcast:
                    mcast = _shard_bytes(op.source.type)
                else:
                    bias += 2
            elif isinstance(op, d2m.RemoteStoreOp) and _space(op.dest) == "dram":
                bias -= 1
            scores[t] = (mcast, bias)
    first_on_noc1 = scores[1] > scores[0]
    return [0, 1] if first_on_noc1 else [1, 0]


def _filter(block: Block, ports: set[int]) -> None:
    """Drop the DMA ops of other threads' ports (those nothing uses), in the block and its loops."""
    changed = True
    while changed:
        changed = False
        for op in list(block.ops):
            if op.has_trait(IsTerminator):
                continue
            if isinstance(op, scf.ForOp):
                _filter(op.body.block, ports)
            elif isinstance(op, SHARD_DMA) and _port(op) not in ports and not any(r.uses for r in op.results):
                Rewriter.erase_op(op)
                changed = True


def _hash_order(ports: list[int]) -> list[int]:
    """`ports` in the order upstream's port-to-count map (an LLVM DenseMap of 64 buckets, hash 37 * port, quadratic
    probing) yields them: ports of equal load are assigned in that order, which decides the threads' split."""
    buckets: dict[int, int] = {}
    for port in ports:
        slot, step = (port * 37) % 64, 1
        while slot in buckets:
            slot, step = (slot + step) % 64, step + 1
        buckets[slot] = port
    return [buckets[slot] for slot in sorted(buckets)]


def dm_thread_count(ports: int, cores: int) -> int:
    """The data-movement threads of a program whose DMA is for `ports` CB ports: a thread a port, up to the cores
    (one kept when no port moves data over the NoC). The main pipeline's programs follow this rule too."""
    return max(1, min(ports, cores))


def lone_dm_core(writes_dram: bool, cores: int) -> int:
    """The core of a program's one data-movement thread: of two (Wormhole, Blackhole) core 0, on NoC 1, when it
    writes DRAM, else core 1, on NoC 0; of six, core 0."""
    return (0 if writes_dram else 1) if cores == 2 else 0


def _dm_thread(core: int) -> ThreadAttr:
    return ThreadAttr.get("datamovement", dm_core=core)


def _schedule(generic: d2m.GenericOp, cores: int) -> None:
    threads = generic.attributes["threads"].data
    if len(generic.regions) != 2 or [t.thread for t in threads] != ["datamovement", "compute"] or \
            not generic.regions[0].blocks:
        return
    dm_block = generic.regions[0].block
    _check_semaphores(dm_block)
    dma = _dma_ops(dm_block)
    if not dma:
        return
    load: dict[int, int] = {}
    for _, port in dma:
        load[port] = load.get(port, 0) + 1
    used = dm_thread_count(len(load), cores)
    if used == 1:
        writes_dram = any(isinstance(op, d2m.RemoteStoreOp) and _space(op.dest) == "dram" for op, _ in dma)
        generic.attributes["threads"] = ArrayAttr([_dm_thread(lone_dm_core(writes_dram, cores)), threads[1]])
        return
    assigned: list[set[int]] = [set() for _ in range(used)]
    work = [0] * used
    for port, count in sorted(((p, load[p]) for p in _hash_order(list(load))), key=lambda item: -item[1]):
        least = work.index(min(work))
        assigned[least].add(port)
        work[least] += count
    dm_cores = _noc_cores(assigned, dma) if cores == 2 else list(range(used))
    regions = []
    for ports in assigned:
        region = generic.regions[0].clone()
        _filter(region.block, ports)
        regions.append(region)
    compute = generic.regions[1]
    generic.detach_region(compute)
    regions.append(compute)
    attributes = dict(generic.attributes)
    attributes["threads"] = ArrayAttr([*(_dm_thread(c) for c in dm_cores), threads[1]])
    new = generic.create(operands=list(generic.operands), result_types=list(generic.result_types),
                         properties=dict(generic.properties), attributes=attributes, regions=regions)
    derive([new], generic)
    Rewriter.replace_op(generic, new)


@dataclass(frozen=True)
class D2MScheduleDMAPass(ModulePass):
    """Spread a generic's DMA over the data-movement cores (see the module doc)."""

    name: ClassVar[str] = "d2m-schedule-dma"
    num_dm_cores: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        system = op.attributes.get("ttcore.system_desc")
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
        cores = self.num_dm_cores or int(system.data.chip(0).get("num_datamovement_threads") or 2)
        if cores == 1:
            return
        if cores not in (2, 6):
            raise PassFailure(op, "d2m-schedule-dma only supports 2 or 6 DM cores")
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            _schedule(generic, cores)
