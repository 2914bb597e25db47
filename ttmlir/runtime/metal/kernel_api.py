"""What a kernel's C++ calls on the simulated Tensix core: circular buffers, NoC reads and writes, semaphores,
the tile engines (unpack, math, pack, SFPU) and the runtime-argument and address helpers, by tt-metal's names."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

import numpy
import torch

from ttmlir import hardware
from ttmlir.runtime.metal import tile_math
from ttmlir.runtime.numerics import Numerics
from ttmlir.runtime.metal.kernel_cpp import CompiledKernel
from ttmlir.runtime.metal.topk_tiles import TopkTiles
from ttmlir.runtime.metal.core import (CircularBuffer, Core, DRAM_BYTES_PER_CYCLE, DRAM_PAGE, KernelHang, KernelLaunch,
                                       LOCAL_BITS, MetalError, NOC_BYTES_PER_CYCLE, NOC_LATENCY, NODE_BITS,
                                       SEMAPHORE_BASE, SEMAPHORE_SLOTS, SPIN_LIMIT, Wait)


# the calls that may wait: each returns None when it is done, else an iterator the kernel waits through (`yield from`)
BLOCKING = frozenset({"cb_wait_front", "cb_reserve_back", "noc_async_read_barrier", "noc_async_write_barrier",
                      "noc_async_full_barrier", "noc_semaphore_wait", "noc_semaphore_wait_min", "tile_regs_wait",
                      "tile_regs_acquire", "acquire_dst", "noc_async_read_barrier_t", "noc_async_write_barrier_t",
                      "noc_async_atomic_barrier"})

# tt-metal's NOC_MAX_BURST_SIZE: the bytes of one NoC packet, by architecture
NOC_MAX_BURST_BYTES = {"wormhole_b0": 8192, "blackhole": 16384}


@dataclass
class _Pointer:
    """A C pointer into this core's L1 (`volatile tt_l1_ptr uint32_t*`)."""
    addr: int
    ctype: str


# tt-metal's DataFormat names of the formats the simulator holds
_DATA_FORMATS = {"Float32": "f32", "Float16_b": "bf16", "Float16": "f16", "Int32": "si32", "UInt32": "u32",
                 "UInt16": "u16", "UInt8": "u8"}
# a pointer's element type in L1: (the struct format it loads as C reads it, the format and mask a store packs:
# an integer's low bits, as C converts it to the element type; a float as it is), little-endian
_POINTER_TYPES = {"uint32_t": ("<I", "<I", 0xFFFFFFFF), "int32_t": ("<i", "<I", 0xFFFFFFFF),
                  "uint16_t": ("<H", "<H", 0xFFFF), "int16_t": ("<h", "<H", 0xFFFF), "uint8_t": ("<B", "<B", 0xFF),
                  "int8_t": ("<b", "<B", 0xFF), "float": ("<f", "<f", None)}


class KernelApi(TopkTiles):
    """tt-metal's kernel API for one kernel on one core: what the compiled C++ calls."""

    def __init__(self, grid, core: Core, launch: KernelLaunch, compiled: CompiledKernel):
        self.grid, self.core, self.launch, self.compiled = grid, core, launch, compiled
        self.num = Numerics(launch.math_fidelity, launch.fp32_dest_acc_en, launch.math_approx_mode, grid.exact)
        self.cycles = self.noc_bytes = self.tiles = 0
        self.pending_reads: list[int] = []
        self.pending_writes: list[int] = []
        self.pending_atomics: list[int] = []
        self.trid_writes: dict[int, list[int]] = {}  # the writes tagged with each transaction id, by completion
        self.read_states: dict[int, tuple] = {}  # NoC -> the far side and size set_async_read_state gave it
        self.rt_args = launch.rt_args.get((core.y, core.x), ())
        self.spins = 0
        self.l1_bytes, self.l1_size = core.l1_np, core.l1.numel()  # the L1 tensor's memory, for word access
        self.cbs = core.cbs  # this program's CBs on the core
        # the core's coordinates per NoC (`my_x[noc_index]`): this grid addresses both NoCs in NoC 0's coordinates
        x, y = grid.noc_xy(core.y, core.x)
        self.constants = {"my_x": [x, x], "my_y": [y, y], "my_logical_x_": core.x, "my_logical_y_": core.y,
                          "noc_index": 0 if launch.processor == "brisc" else 1}

    def spin(self) -> None:
        """One pass of an unbounded loop; a kernel that loops this long without finishing is reported as hung."""
        self.spins += 1
        if self.spins > SPIN_LIMIT:
            raise KernelHang(f"hang: the kernel ran {SPIN_LIMIT:,} passes of its unbounded loops without finishing")

    # --- arguments -------------------------------------------------------------------------------------
    def get_compile_time_arg_val(self, index: int) -> int:
        return self._arg(self.launch.ct_args, index, "compile-time")

    def get_arg_val_t(self, _type: str, index: int) -> int:
        return self._arg(self.rt_args, index, "runtime")

    def get_common_arg_val_t(self, _type: str, index: int) -> int:
        return self._arg(self.launch.common_rt_args, index, "common runtime")

    def get_compile_time_arg_val_t(self, _type: str, index: int) -> int:
        return self.get_compile_time_arg_val(index)

    def _arg(self, args, index: int, kind: str) -> int:
        if not 0 <= index < len(args):
            raise MetalError(f"{kind} argument {index} asked for; the kernel was given {len(args)}")
        return args[index]

    def constant(self, name: str):
        value = self.constants.get(name)
        if value is None:
            raise MetalError(f"'{name}' is not declared")
        return value

    # --- L1 pointers -----------------------------------------------------------------------------------
    def pointer(self, addr, ctype: str) -> _Pointer:
        if isinstance(addr, _Pointer):
            return _Pointer(addr.addr, ctype)
        if ctype not in _POINTER_TYPES:
            raise MetalError(f"pointers to '{ctype}' are not modelled")
        return _Pointer(int(addr), ctype)

    def _slot(self, pointer, index: int) -> tuple[int, tuple]:
        """The L1 address of `pointer[index]` (bounds-checked) and its element type's formats."""
        if not isinstance(pointer, _Pointer):
            raise MetalError("dereferencing a value that is not a pointer")
        formats = _POINTER_TYPES[pointer.ctype]
        size = struct.calcsize(formats[0])
        addr = pointer.addr + index * size
        if addr < 0 or addr + size > self.l1_size:
            self.grid.check_l1(addr, size, self.core.name)
        return addr, formats

    def load(self, pointer, index: int):
        if isinstance(pointer, list):
            return pointer[index]
        addr, (fmt, _, _) = self._slot(pointer, index)
        return struct.unpack_from(fmt, self.l1_bytes, addr)[0]

    def store(self, pointer, index: int, value) -> None:
        addr, (_, fmt, mask) = self._slot(pointer, index)
        struct.pack_into(fmt, self.l1_bytes, addr, int(value) & mask if mask is not None else value)
        self.grid.events += 1

    def fill(self, pointer, indices: range, value) -> None:
        """`pointer[i] = value` for each i of `indices` (a kernel's loop of stores of one value), at once."""
        if indices.step != 1:
            for index in indices:
                self.store(pointer, index, value)
            return
        first, (_, fmt, mask) = self._slot(pointer, indices[0])
        last, _ = self._slot(pointer, indices[-1])
        word = numpy.frombuffer(struct.pack(fmt, int(value) & mask if mask is not None else value), numpy.uint8)
        self.l1_bytes[first:last + word.size].reshape(-1, word.size)[:] = word
        self.grid.events += 1

    # --- circular buffers ------------------------------------------------------------------------------
    def _cb(self, port: int) -> CircularBuffer:
        cb = self.cbs.get(port)
        if cb is None:
            raise MetalError(f"cb {port} is not configured on {self.core.name}")
        return cb

    def cb_reserve_back(self, port: int, pages: int):
        cb = self._cb(port)
        if pages > cb.num_pages:
            raise MetalError(f"cb_reserve_back({port}, {pages}) can never succeed: {cb.describe()} is smaller "
                             f"than the block")
        if cb.num_pages % pages:
            raise MetalError(f"cb_reserve_back({port}, {pages}): a block of {pages} page(s) straddles the end of "
                             f"{cb.describe()} (its pages are not a multiple of the block)")
        if cb.num_pages - cb.pushed + cb.popped < pages:
            return self._reserve_when_free(cb, port, pages)
        self._reserved(cb, pages)

    def _reserve_when_free(self, cb: CircularBuffer, port: int, pages: int):
        wait = Wait(lambda: f"cb_reserve_back({port}, {pages}): {cb.free} of {pages} page(s) free in "
                            f"{cb.describe()}")
        while cb.num_pages - cb.pushed + cb.popped < pages:
            yield wait
        self._reserved(cb, pages)

    def _reserved(self, cb: CircularBuffer, pages: int) -> None:
        pops_needed = cb.pushed + pages - cb.num_pages  # the slots reserved were freed by this many pops
        if pops_needed > 0 and cb.pop_times[pops_needed - 1] > self.cycles:
            self.cycles = cb.pop_times[pops_needed - 1]
        cb.reserved = pages

    def cb_push_back(self, port: int, pages: int) -> None:
        cb = self._cb(port)
        if pages > cb.num_pages - cb.pushed + cb.popped:
            raise MetalError(f"cb_push_back({port}, {pages}) overflows {cb.describe()}: {cb.free} page(s) free")
        if pages > cb.reserved:
            raise MetalError(f"cb_push_back({port}, {pages}) pushes pages that were not reserved "
                             f"({cb.reserved} reserved)")
        cb.reserved -= pages
        cb.pushed += pages
        cb.push_times.extend([self.cycles] * pages)
        self.grid.events += 1

    def cb_wait_front(self, port: int, pages: int):
        cb = self._cb(port)
        if pages > cb.num_pages:
            raise MetalError(f"cb_wait_front({port}, {pages}) can never succeed: {cb.describe()} is smaller "
                             f"than the block")
        if cb.pushed - cb.popped < pages:
            return self._wait_for_pages(cb, port, pages)
        self._waited(cb, pages)

    def _wait_for_pages(self, cb: CircularBuffer, port: int, pages: int):
        wait = Wait(lambda: f"cb_wait_front({port}, {pages}): {cb.available} of {pages} page(s) pushed to "
                            f"{cb.describe()}")
        while cb.pushed - cb.popped < pages:
            yield wait
        self._waited(cb, pages)

    def _waited(self, cb: CircularBuffer, pages: int) -> None:
        pushed_at = cb.push_times[cb.popped + pages - 1]
        if pushed_at > self.cycles:
            self.cycles = pushed_at
        cb.waited = pages

    def cb_pop_front(self, port: int, pages: int) -> None:
        cb = self._cb(port)
        if pages > cb.pushed - cb.popped:
            raise MetalError(f"cb_pop_front({port}, {pages}) pops more than the {cb.available} page(s) in "
                             f"{cb.describe()}")
        cb.popped += pages
        cb.waited = cb.waited - pages if cb.waited > pages else 0
        cb.pop_times.extend([self.cycles] * pages)
        self.grid.events += 1

    def get_write_ptr(self, port: int) -> int:
        cb = self._cb(port)
        return cb.pointer(cb.pushed)

    def get_read_ptr(self, port: int) -> int:
        cb = self._cb(port)
        return cb.pointer(cb.popped)

    def get_tile_size(self, port: int) -> int:
        return self._cb(port).config.page_size

    # --- NoC -------------------------------------------------------------------------------------------
    def get_noc_addr(self, x: int, y: int | None = None, addr: int | None = None, noc: int = 0) -> int:
        if addr is None:  # get_noc_addr(l1_addr): this core's own L1
            return self.grid.l1_addr(self.core.y, self.core.x, x)
        return self.grid.noc_addr(x, y, addr)

    def convert_logical_x_to_translated(self, x: int) -> int:
        """`experimental::convert_logical_x_to_translated`: a worker column as the NoC names it."""
        return self.grid.noc_xy(0, int(x))[0]

    def convert_logical_y_to_translated(self, y: int) -> int:
        """`experimental::convert_logical_y_to_translated`: a worker row as the NoC names it."""
        return self.grid.noc_xy(int(y), 0)[1]

    def get_noc_addr_from_bank_id_t(self, _dram: str, bank: int, addr: int) -> int:
        return self.grid.dram_addr(bank, addr)

    def get_noc_multicast_addr(self, x0: int, y0: int, x1: int, y1: int, addr: int, noc: int = 0) -> tuple:
        return ("mcast", x0, y0, x1, y1, addr)

    @staticmethod
    def min_t(_type: str, a: int, b: int) -> int:
        """`std::min<T>(a, b)` (the values are already of T)."""
        return min(a, b)

    @staticmethod
    def max_t(_type: str, a: int, b: int) -> int:
        return max(a, b)

    # tt-metal's Noc object API: `noc0.async_read(endpoint, CoreLocalMem<uint32_t>(dst), size, {far side}, {})`,
    # the far side's fields named by the kind of endpoint the kernel declared (the kernel compiler passes a
    # CoreLocalMem as its address)

    # tt-metal's TensorAccessor: over an interleaved DRAM buffer page p is in bank p % banks at row p / banks; over
    # a sharded one, page p (row-major over the tensor) is in the shard holding it, on that shard's core
    def tensor_accessor_args(self, cta: int, crta: int) -> dict:
        """`TensorAccessorArgs<cta, crta>()`: the buffer its compile-time args from `cta` on describe (it takes no
        common runtime args here), and where the next accessor's args start."""
        kind = self.get_compile_time_arg_val(cta)
        if kind == hardware.TENSOR_ACCESSOR_INTERLEAVED:
            sharded = None
        elif kind == hardware.TENSOR_ACCESSOR_SHARDED:
            words = [self.get_compile_time_arg_val(cta + 1 + i)
                     for i in range(hardware.tensor_accessor_size(True) - 1)]
            sharded = tuple(zip(words[0::2], words[1::2]))  # grid, shard, origin, cores
        else:
            raise MetalError(f"TensorAccessorArgs<{cta}, {crta}>: compile-time arg {cta} ({kind}) describes no "
                             "buffer")
        return {"sharded": sharded, "next_cta": cta + hardware.tensor_accessor_size(sharded is not None),
                "next_crta": crta}

    @staticmethod
    def tensor_accessor_next_cta(args: dict) -> int:
        return args["next_cta"]

    @staticmethod
    def tensor_accessor_next_crta(args: dict) -> int:
        return args["next_crta"]

    @staticmethod
    def TensorAccessor(args, base: int, page_size: int) -> dict:
        if not isinstance(args, dict) or "sharded" not in args:
            raise MetalError("TensorAccessor is made from a TensorAccessorArgs")
        return {"base": int(base), "page_size": int(page_size), "sharded": args["sharded"]}

    @staticmethod
    def tensor_accessor_page_size(accessor) -> int:
        return accessor["page_size"]

    def _far(self, endpoint, args, call: str) -> int:
        if isinstance(endpoint, dict):  # a TensorAccessor, the far side its page {.page_id = p}
            if not isinstance(args, dict) or set(args) != {"page_id"}:
                raise MetalError(f"{call} through a TensorAccessor names its page as {{.page_id = p}}, got {args!r}")
            page, size = args["page_id"], endpoint["page_size"]
            if endpoint["sharded"] is None:
                banks = self.grid.facts.num_dram_channels
                return self.grid.dram_addr(page % banks, endpoint["base"] + page // banks * size)
            (gy, gx), (sy, sx), (oy, ox), (_, cx) = endpoint["sharded"]
            row, col = divmod(page, gx * sx)
            if row >= gy * sy:
                raise MetalError(f"{call}: page {page} is past the {gy * sy}x{gx * sx} pages of the sharded buffer")
            shard = (row // sy) * gx + col // sx
            offset = ((row % sy) * sx + col % sx) * size
            return self.grid.l1_addr(oy + shard // cx, ox + shard % cx, endpoint["base"] + offset)
        fields, names = _ENDPOINT_FIELDS[endpoint]
        if not isinstance(args, dict) or args.keys() != names:
            raise MetalError(f"{call}: a {endpoint} endpoint's far side is {{{', '.join('.' + f for f in fields)}}}, "
                             f"got {args!r}")
        if endpoint == "dram":
            return self.grid.dram_addr(args["bank_id"], args["addr"])
        if endpoint == "mcast":
            return ("mcast", *(args[f] for f in fields))
        return self.grid.noc_addr(args["noc_x"], args["noc_y"], args["addr"])

    def noc_object_read(self, noc: int, endpoint: str, dst_l1: int, size: int, src_args, _dst_args) -> None:
        if type(src_args) is dict:
            if endpoint == "unicast" and src_args.keys() == _UNICAST_FIELDS:
                return self.noc_unicast_read(noc, dst_l1, size, src_args["noc_x"], src_args["noc_y"], src_args["addr"])
            if endpoint == "dram" and src_args.keys() == _DRAM_FIELDS:
                return self.noc_dram_read(noc, dst_l1, size, src_args["bank_id"], src_args["addr"])
        self.noc_async_read(self._far(endpoint, src_args, "async_read"), dst_l1, size, noc)

    # the kernels' most frequent calls (row gathers read a face row at a time, DRAM tensors stream a page at a time):
    # `noc.async_read(unicast_ep | dram_ep, dst, size, {far side}, {})` with the far side's fields given apart (the
    # kernel compiler's form of a literal far side). A read within a worker's L1 or one DRAM page, landing within L1,
    # is done here; anything else (and every error) takes the general path.

    def noc_unicast_read(self, noc: int, dst_l1: int, size: int, noc_x: int, noc_y: int, addr: int) -> None:
        if 0 <= size and 0 <= dst_l1 and dst_l1 + size <= self.l1_size and 0 <= addr and addr + size <= self.l1_size:
            source = self.grid.l1_of_node(noc_x, noc_y)
            if source is not None:
                self.l1_bytes[dst_l1:dst_l1 + size] = source[addr:addr + size]
                return self._read_issued(size, NOC_BYTES_PER_CYCLE)
        self.noc_async_read(self.grid.noc_addr(noc_x, noc_y, addr), dst_l1, size, noc)

    def noc_dram_read(self, noc: int, dst_l1: int, size: int, bank: int, addr: int) -> None:
        page, low = divmod(addr, DRAM_PAGE)
        if 0 <= size and 0 <= dst_l1 and dst_l1 + size <= self.l1_size and 0 <= addr and low + size <= DRAM_PAGE \
                and 0 <= bank < self.grid.facts.num_dram_channels and addr + size <= self.grid.facts.dram_channel_size:
            held = self.grid.dram_view(bank, page)  # a page never written reads 0
            self.l1_bytes[dst_l1:dst_l1 + size] = 0 if held is None else held[low:low + size]
            self.grid.bank_bytes[bank] = self.grid.bank_bytes.get(bank, 0) + size
            return self._read_issued(size, DRAM_BYTES_PER_CYCLE)
        self.noc_async_read(self.grid.dram_addr(bank, addr), dst_l1, size, noc)

    def _read_issued(self, size: int, bytes_per_cycle: int) -> None:
        """A NoC read's bookkeeping (`noc_async_read`'s): an event, its bytes, when it lands, the issuing cycle."""
        self.grid.events += 1
        self.noc_bytes += size
        self.pending_reads.append(self.cycles + NOC_LATENCY + -(-size // bytes_per_cycle))
        self.cycles += 1

    @staticmethod
    def noc_object_id(noc: int) -> int:
        """`noc.get_noc_id()`: which NoC the object drives."""
        return int(noc)

    def endpoint_unicast_addr(self, endpoint: str, x: int, y: int, addr: int, noc: int) -> int:
        """`unicast_ep.get_noc_unicast_addr(x, y, addr, noc_id)`: the NoC address of `addr` on core (x, y)."""
        if endpoint != "unicast":
            raise MetalError(f"get_noc_unicast_addr on a {endpoint} endpoint")
        return self.grid.noc_addr(int(x), int(y), int(addr))

    def noc_object_inline_dw_write_t(self, options: str, noc: int, endpoint: str, value: int, dst_args,
                                     byte_enable: int = 0xF) -> None:
        """`noc.inline_dw_write<NocOptions::INLINE_L1>(unicast_ep, value, {far side}, byte_enable)`."""
        if options.strip() != "NocOptions::INLINE_L1":
            raise MetalError(f"inline_dw_write<{options}>: expected NocOptions::INLINE_L1")
        self.noc_inline_dw_write(self._far(endpoint, dst_args, "inline_dw_write"), value, byte_enable, noc)

    def noc_object_write(self, noc: int, src_l1: int, endpoint: str, size: int, _src_args, dst_args) -> None:
        self.noc_async_write(src_l1, self._far(endpoint, dst_args, "async_write"), size, noc)

    def noc_object_write_t(self, options: str, noc: int, src_l1: int, endpoint: str, size: int, src_args, dst_args,
                           values=None) -> None:
        """`async_write<NocOptions::TXN_ID, ...>(..., NocOptVals{.trid = t})`: a write a barrier can wait for by
        its transaction id."""
        self.noc_object_write(noc, src_l1, endpoint, size, src_args, dst_args)
        if (trid := _trid(options, values, "async_write")) is not None:
            self.trid_writes.setdefault(trid, []).append(self.pending_writes[-1])

    def noc_async_read_barrier_t(self, options: str, noc: int, values=None):
        """A read barrier for one transaction id: this grid tags no reads, so there is none to wait for."""
        _trid(options, values, "async_read_barrier")

    def noc_async_write_barrier_t(self, options: str, noc: int, values=None):
        """A write barrier for the writes tagged with one transaction id."""
        trid = _trid(options, values, "async_write_barrier")
        if trid is None:
            self.noc_async_write_barrier(noc)
            return
        self.cycles = max([self.cycles, *self.trid_writes.pop(trid, [])])

    def noc_async_atomic_barrier(self, noc: int = 0):
        """Waits for this core's semaphore increments to land."""
        self.cycles = max([self.cycles, *self.pending_atomics])
        self.pending_atomics.clear()

    def noc_object_write_multicast(self, noc: int, src_l1: int, endpoint: str, size: int, num_dests: int,
                                   _src_args, dst_args, linked: bool = False) -> None:
        if endpoint != "mcast":
            raise MetalError("async_write_multicast names its destinations with a MulticastEndpoint")
        self.noc_async_write_multicast(src_l1, self._far(endpoint, dst_args, "async_write_multicast"), size,
                                       num_dests, linked)

    def noc_object_write_multicast_t(self, options: str, noc: int, src_l1: int, endpoint: str, size: int,
                                     num_dests: int, src_args, dst_args, linked: bool = False) -> None:
        """`async_write_multicast<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>` (one packet) or `<...MCAST_INCL_SRC>`
        (the rectangle holds the sender, which writes to itself too)."""
        self._one_packet(options, size, "async_write_multicast")
        self.noc_object_write_multicast(noc, src_l1, endpoint, size, num_dests, src_args, dst_args, linked)

    def noc_object_set_read_state_t(self, options: str, noc: int, endpoint: str, size: int, src_args) -> None:
        """`set_async_read_state<...>`: the far side and size of this NoC's stateful one-packet reads."""
        self._one_packet(options, size, "set_async_read_state")
        self.read_states[noc] = (self._far(endpoint, src_args, "set_async_read_state"), size)

    def noc_object_read_with_state_t(self, options: str, noc: int, endpoint: str, dst_l1: int, size: int, src_args,
                                     _dst_args) -> None:
        """`async_read_with_state<...>`: a one-packet read on a NoC whose read state was set."""
        if noc not in self.read_states:
            raise MetalError(f"async_read_with_state on NoC {noc} before its set_async_read_state")
        self._one_packet(options, size, "async_read_with_state")
        self.noc_async_read(self._far(endpoint, src_args, "async_read_with_state"), dst_l1, size, noc)

    def _one_packet(self, options: str, size: int, call: str) -> None:
        """A transfer with NOC_MAX_BURST_SIZE in its options is one NoC packet at most."""
        limit = NOC_MAX_BURST_BYTES[self.grid.facts.arch]
        if "NOC_MAX_BURST_SIZE" in options and size > limit:
            raise MetalError(f"{call}<{options}>: {size} bytes do not fit one NoC packet ({limit} bytes)")

    def unpack_stall_on_pack(self) -> None:
        """The unpacker waits for the packer's last write to land in L1: here a pack is in L1 when its call
        returns, so there is never anything to wait for."""
        self._compute_only("experimental::unpack_stall_on_pack")

    def get_semaphore(self, sem_id: int) -> int:
        if not 0 <= sem_id < SEMAPHORE_SLOTS:
            raise MetalError(f"semaphore {sem_id} does not exist (ids 0-{SEMAPHORE_SLOTS - 1})")
        return SEMAPHORE_BASE + 16 * sem_id

    def _done_at(self, noc_addr: int, size: int) -> int:
        """The cycle a transfer issued now completes: NoC latency plus its bytes at the NoC's or the bank's rate."""
        if (noc_addr >> LOCAL_BITS) & ((1 << NODE_BITS) - 1):
            return self.cycles + NOC_LATENCY + -(-size // NOC_BYTES_PER_CYCLE)
        bank = (noc_addr >> (LOCAL_BITS + NODE_BITS)) & ((1 << NODE_BITS) - 1)
        self.grid.bank_bytes[bank] = self.grid.bank_bytes.get(bank, 0) + size
        return self.cycles + NOC_LATENCY + -(-size // DRAM_BYTES_PER_CYCLE)

    def noc_async_read(self, src_noc_addr: int, dst_l1: int, size: int, noc: int = 0) -> None:
        if dst_l1 < 0 or size < 0 or dst_l1 + size > self.l1_size:
            self.grid.check_l1(dst_l1, size, self.core.name)
        self.grid.read_into(src_noc_addr, self.l1_bytes[dst_l1:dst_l1 + size])
        self.grid.events += 1
        self.noc_bytes += size
        self.pending_reads.append(self._done_at(src_noc_addr, size))
        self.cycles += 1

    def noc_async_write(self, src_l1: int, dst_noc_addr, size: int, noc: int = 0) -> None:
        if isinstance(dst_noc_addr, tuple):
            raise MetalError("noc_async_write to a multicast address; use noc_async_write_multicast")
        if src_l1 < 0 or size < 0 or src_l1 + size > self.l1_size:
            self.grid.check_l1(src_l1, size, self.core.name)
        self.grid.write_from(dst_noc_addr, self.l1_bytes[src_l1:src_l1 + size])
        self.noc_bytes += size
        self.pending_writes.append(self._done_at(dst_noc_addr, size))
        self.cycles += 1

    def noc_async_write_multicast(self, src_l1: int, dst_mcast, size: int, num_dests: int,
                                  linked: bool = False) -> None:
        if not isinstance(dst_mcast, tuple):
            raise MetalError("noc_async_write_multicast to a unicast address; use get_noc_multicast_addr")
        _, x0, y0, x1, y1, addr = dst_mcast
        nodes = [(x, y) for y in range(min(y0, y1), max(y0, y1) + 1) for x in range(min(x0, x1), max(x0, x1) + 1)]
        if len(nodes) != num_dests:
            raise MetalError(f"noc_async_write_multicast to {len(nodes)} core(s) with num_dests={num_dests}")
        if src_l1 < 0 or size < 0 or src_l1 + size > self.l1_size:
            self.grid.check_l1(src_l1, size, self.core.name)
        data = self.l1_bytes[src_l1:src_l1 + size].copy()  # the sender may be among the destinations
        for x, y in nodes:
            self.grid.write_from(self.grid.noc_addr(x, y, addr), data)
        self.noc_bytes += size
        self.pending_writes.append(self.cycles + NOC_LATENCY + -(-size // NOC_BYTES_PER_CYCLE))
        self.cycles += 1

    def noc_async_read_barrier(self, noc: int = 0):
        self.cycles = max([self.cycles, *self.pending_reads])
        self.pending_reads.clear()

    def noc_async_write_barrier(self, noc: int = 0):
        self.cycles = max([self.cycles, *self.pending_writes])
        self.pending_writes.clear()

    def noc_async_full_barrier(self, noc: int = 0):
        self.noc_async_read_barrier()
        self.noc_async_write_barrier()

    # --- semaphores ------------------------------------------------------------------------------------
    def noc_semaphore_set(self, pointer, value: int) -> None:
        self.store(pointer, 0, value)
        self.core.sem_times[pointer.addr] = self.cycles

    def noc_semaphore_wait(self, pointer, value: int):
        return self._semaphore_wait("noc_semaphore_wait", pointer, value, lambda held: held == value)

    def noc_semaphore_wait_min(self, pointer, value: int):
        return self._semaphore_wait("noc_semaphore_wait_min", pointer, value, lambda held: held >= value)

    def _semaphore_wait(self, call: str, pointer, value: int, reached):
        """Done (None) when the semaphore's value is `reached`, else the wait for it."""
        if not reached(self.load(pointer, 0)):
            return self._wait_for_semaphore(call, pointer, value, reached)
        self.cycles = max(self.cycles, self.core.sem_times.get(pointer.addr, 0))

    def _wait_for_semaphore(self, call: str, pointer, value: int, reached):
        wait = Wait(lambda: f"{call}(semaphore at {pointer.addr:#x}, {value}): it holds {self.load(pointer, 0)}")
        while not reached(self.load(pointer, 0)):
            yield wait
        self.cycles = max(self.cycles, self.core.sem_times.get(pointer.addr, 0))

    def noc_semaphore_inc(self, noc_addr: int, increment: int, noc: int = 0) -> None:
        kind, core, addr = self.grid.resolve(noc_addr, 4)
        if kind != "l1":
            raise MetalError("noc_semaphore_inc on a DRAM address")
        slot = core.l1[addr:addr + 4].view(torch.int32)
        slot[0] = int(slot[0].item()) + int(increment)
        core.sem_times[addr] = self.cycles + NOC_LATENCY
        self.pending_atomics.append(self.cycles + NOC_LATENCY)
        self.grid.events += 1
        self.cycles += 1

    def noc_semaphore_inc_multicast(self, dst_mcast, increment: int, num_dests: int, noc: int = 0) -> None:
        """The semaphore at the same address on every core of a rectangle incremented."""
        if not isinstance(dst_mcast, tuple):
            raise MetalError("noc_semaphore_inc_multicast to a unicast address; use get_noc_multicast_addr")
        _, x0, y0, x1, y1, addr = dst_mcast
        nodes = [(x, y) for y in range(min(y0, y1), max(y0, y1) + 1) for x in range(min(x0, x1), max(x0, x1) + 1)]
        if len(nodes) != num_dests:
            raise MetalError(f"noc_semaphore_inc_multicast to {len(nodes)} core(s) with num_dests={num_dests}")
        for x, y in nodes:
            self.noc_semaphore_inc(self.grid.noc_addr(x, y, addr), increment, noc)

    def noc_semaphore_set_remote(self, src_l1: int, dst_noc_addr: int, noc: int = 0) -> None:
        """The word at `src_l1` written to a NoC address (a write the write barrier waits for)."""
        self.noc_async_write(src_l1, dst_noc_addr, 4, noc)
        self._mark_semaphore(dst_noc_addr)

    def noc_inline_dw_write(self, noc_addr: int, value: int, byte_enable: int = 0xF, noc: int = 0) -> None:
        """A 32-bit value written into another core's L1 with no staging word: the bytes `byte_enable` selects."""
        kind, core, addr = self.grid.resolve(noc_addr, 4)
        if kind != "l1":
            raise MetalError("noc_inline_dw_write to a DRAM address")
        word = (int(value) & 0xFFFFFFFF).to_bytes(4, "little")
        for i in range(4):
            if int(byte_enable) >> i & 1:
                core.l1[addr + i] = word[i]
        self._mark_semaphore(noc_addr)
        self.grid.events += 1
        self.pending_writes.append(self._done_at(noc_addr, 4))
        self.cycles += 1

    def _mark_semaphore(self, noc_addr: int) -> None:
        """A word written over the NoC reaches a core's L1 one NoC latency from now (what a waiter on it sees)."""
        kind, core, addr = self.grid.resolve(noc_addr, 4)
        if kind == "l1":
            core.sem_times[addr] = self.cycles + NOC_LATENCY

    def noc_semaphore_set_multicast(self, src_l1: int, dst_mcast, num_dests: int, linked: bool = False) -> None:
        self.noc_async_write_multicast(src_l1, dst_mcast, 4, num_dests)
        _, x0, y0, x1, y1, addr = dst_mcast
        for y in range(min(y0, y1), max(y0, y1) + 1):
            for x in range(min(x0, x1), max(x0, x1) + 1):
                oy, ox = self.grid.facts.coord_translation_offsets
                self.grid.core(y - oy, x - ox).sem_times[addr] = self.cycles + NOC_LATENCY

    # --- compute: dst register -------------------------------------------------------------------------
    def _compute_only(self, name: str) -> None:
        if self.launch.processor != "compute":
            raise MetalError(f"'{name}' is a compute API call in a data-movement kernel")

    def tile_regs_acquire(self):
        self._compute_only("tile_regs_acquire")
        self.core.dst_state = "acquired"
        self.core.dst_np.fill(0)  # the packer clears what it packed; a fresh acquire sees zeros
        self.core.dst_written = set()

    acquire_dst = tile_regs_acquire

    def tile_regs_commit(self) -> None:
        self._dst_state("tile_regs_commit", "acquired")
        self.core.dst_state = "committed"

    def tile_regs_wait(self):
        self._dst_state("tile_regs_wait", "committed")
        self.core.dst_state = "waited"

    def tile_regs_release(self) -> None:
        self._dst_state("tile_regs_release", "waited", "acquired")
        self.core.dst_state = "released"

    def release_dst(self) -> None:
        self.core.dst_state = "released"

    def _dst_state(self, call: str, *expected: str) -> None:
        if self.core.dst_state not in expected:
            raise MetalError(f"{call}() with the dst register {self.core.dst_state} (expected "
                             f"{' or '.join(expected)})")

    def _dst_index(self, index: int, call: str) -> int:
        limit = tile_math.DST_TILES // 2 if self.launch.fp32_dest_acc_en else tile_math.DST_TILES
        if not 0 <= index < limit:
            raise MetalError(f"{call}: dst index {index} is outside the dst register ({limit} tiles)")
        if self.core.dst_state != "acquired":
            raise MetalError(f"{call}: the dst register is {self.core.dst_state}; call tile_regs_acquire() first")
        return int(index)

    def _cb_tile(self, port: int, tile: int, call: str) -> torch.Tensor:
        cb = self._cb(port)
        if not 0 <= tile < cb.waited:
            raise MetalError(f"{call}: tile {tile} of cb {port} was not waited for (cb_wait_front covers "
                             f"{cb.waited} page(s))")
        self.cycles += tile_math.CYCLES["unpack"]
        data_format, addr = cb.config.data_format, cb.pointer(cb.popped) + tile * cb.page_size
        end, values = addr + tile_math.tile_bytes(data_format), numpy.empty((tile_math.TILE,) * 2, numpy.float32)
        if tile_math.unpack_into(values, self.l1_bytes[addr:end], data_format):
            return torch.from_numpy(values)
        return tile_math.unpack(self.core.l1[addr:end], data_format)

    def _cb_pages(self, cb: CircularBuffer, tiles: list[int]) -> torch.Tensor:
        """Tiles of the waited-for front of a CB (checked by the caller), unpacked: [len(tiles), 32, 32] f32."""
        base, page, data_format = cb.pointer(cb.popped), cb.config.page_size, cb.config.data_format
        values = tile_math.unpack_pages(self.l1_bytes, base, page, tiles, data_format)
        if values is not None:
            return torch.from_numpy(values)
        size = tile_math.tile_bytes(data_format)
        return torch.stack([tile_math.unpack(self.core.l1[base + t * page:base + t * page + size], data_format)
                            for t in tiles])

    def _set_dst(self, index: int, value: torch.Tensor) -> None:
        held = tile_math.dst_held(value.numpy(), self.num) if value.dtype == torch.float32 else None
        if held is not None:
            self.core.dst_np[index] = held
        else:
            self.core.dst[index] = tile_math.dst_round(value, self.num)
        self.tiles += 1

    def fill_tile(self, dst: int, value: float) -> None:
        """Every element of dst tile `dst` set to `value`."""
        self._compute_only("fill_tile")
        index = self._dst_index(dst, "fill_tile")
        self._set_dst(index, torch.full_like(self.core.dst[index], float(value)))
        self.cycles += tile_math.sfpu_cycles("fill")

    def _write_mask_tile(self, template: str, valid: int, port: int, axis: int) -> None:
        """A mask tile (1 where the row, or column, index is below `valid`, else 0) in `template`'s format
        (Float32, Float16_b or Int32) at the CB's read pointer, as upstream's padding LLK writes it."""
        call = ("write_row_mask_tile", "write_col_mask_tile")[axis]
        data_format = _DATA_FORMATS.get(template.strip().removeprefix("DataFormat::"))
        if data_format not in ("f32", "bf16", "si32"):
            raise MetalError(f"{call}<{template}>: expected DataFormat::Float32, Float16_b or Int32")
        cb = self._cb(port)
        index = torch.arange(32).view((32, 1) if axis == 0 else (1, 32))
        tile = (index < int(valid)).to(torch.float32).expand(32, 32)
        addr = cb.pointer(cb.popped)
        self.core.l1[addr:addr + tile_math.tile_bytes(data_format)] = tile_math.pack(tile, data_format)
        self.cycles += tile_math.CYCLES["pack"]

    def write_row_mask_tile_t(self, template: str, valid_rows: int, port: int) -> None:
        self._write_mask_tile(template, valid_rows, port, 0)

    def write_col_mask_tile_t(self, template: str, valid_cols: int, port: int) -> None:
        self._write_mask_tile(template, valid_cols, port, 1)

    def copy_tile(self, port: int, tile: int, dst: int) -> None:
        self._compute_only("copy_tile")
        self._unpack_to_dst(port, tile, self._dst_index(dst, "copy_tile"), "copy_tile")

    def _unpack_to_dst(self, port: int, tile: int, index: int, call: str, transpose: bool = False) -> None:
        """`_set_dst(index, _cb_tile(...))` (the tile transposed if asked), the bytes straight into dst."""
        cb = self._cb(port)
        if 0 <= tile < cb.waited:
            data_format = cb.config.data_format
            addr = cb.pointer(cb.popped) + tile * cb.page_size
            held = self.core.dst_np[index]
            if tile_math.unpack_into(held, self.l1_bytes[addr:addr + tile_math.tile_bytes(data_format)], data_format,
                                     transpose) and tile_math.dst_holds(held, data_format, self.num):
                self.cycles += tile_math.CYCLES["unpack"]
                self.tiles += 1
                return
        value = self._cb_tile(port, tile, call)  # refused there when the tile was not waited for
        self._set_dst(index, value.T if transpose else value)

    def pack_tile_block(self, dst: int, port: int, tiles: int) -> None:
        """`tiles` dst tiles from `dst` on into the reserved pages of a CB, in order."""
        for i in range(int(tiles)):
            self.pack_tile(int(dst) + i, port, i)

    def copy_block_matmul_partials(self, port: int, tile: int, dst: int, tiles: int) -> None:
        """`tiles` CB tiles from `tile` on into dst from `dst` on (a matmul's partial sums, reloaded)."""
        for i in range(int(tiles)):
            self.copy_tile(port, int(tile) + i, int(dst) + i)

    def copy_dest_values_t(self, _format: str, src: int, dst: int) -> None:
        """dst[dst] = dst[src], value for value (both already in the dst register's format)."""
        self._compute_only("copy_dest_values")
        self._set_dst(self._dst_index(dst, "copy_dest_values"), self.core.dst[self._dst_index(src, "copy_dest_values")])

    def typecast_tile_init_t(self, _formats: str) -> None:
        """Configures the SFPU for `typecast_tile` (computes nothing here)."""

    def typecast_tile_t(self, formats: str, dst: int) -> None:
        """`typecast_tile<IN, OUT>(dst)`: dst[dst]'s values (held in IN's format) as OUT holds them: a float
        format's values from an integer's, rounded to it, or an integer format's from a float's, truncated."""
        self._compute_only("typecast_tile")
        names = re.findall(r"DataFormat::(\w+)", formats)
        if len(names) != 2 or any(n not in _DATA_FORMATS for n in names):
            raise MetalError(f"typecast_tile<{formats}>: expected two DataFormat values of "
                             f"{', '.join(_DATA_FORMATS)}")
        index = self._dst_index(dst, "typecast_tile")
        value, out = self.core.dst[index], _DATA_FORMATS[names[1]]
        self._set_dst(index, value.trunc() if not tile_math.FORMATS[out].is_floating_point else value.to(tile_math.FORMATS[out]).to(torch.float32))
        self.cycles += tile_math.sfpu_cycles("typecast")

    @staticmethod
    def bfloat16_greater(a: int, b: int) -> bool:
        """Whether bf16 `a` > bf16 `b`, both given as their 16 bits."""
        bits = torch.tensor([(int(a) & 0xFFFF) << 16, (int(b) & 0xFFFF) << 16], dtype=torch.int64).to(torch.int32)
        x, y = bits.view(torch.float32).tolist()
        return x > y

    @staticmethod
    def float32_greater(a: int, b: int) -> bool:
        """Whether f32 `a` > f32 `b`, both given as their 32 bits."""
        x, y = torch.tensor([int(a) & 0xFFFFFFFF, int(b) & 0xFFFFFFFF], dtype=torch.int64).to(torch.int32) \
            .view(torch.float32).tolist()
        return x > y

    def pack_tile(self, dst: int, port: int, out_tile: int = 0) -> None:
        self._compute_only("pack_tile")
        if self.core.dst_state != "waited":
            raise MetalError(f"pack_tile: the dst register is {self.core.dst_state}; call tile_regs_commit() "
                             "and tile_regs_wait() first")
        cb = self._cb(port)
        if out_tile >= cb.reserved:
            raise MetalError(f"pack_tile into tile {out_tile} of cb {port}, beyond the {cb.reserved} page(s) "
                             "reserved")
        page, data_format = cb.page_size, cb.config.data_format
        addr = cb.pointer(cb.pushed) + out_tile * page
        if self.core.pack_l1_acc or not tile_math.pack_into(self.l1_bytes[addr:addr + page],
                                                            self.core.dst_np[int(dst)], data_format, self.num):
            tile = self.core.dst[int(dst)]
            if self.core.pack_l1_acc:  # added into the tile already there
                tile = tile + tile_math.unpack(self.core.l1[addr:addr + page], data_format)
            self.core.l1[addr:addr + page] = tile_math.pack(tile, data_format, self.num)
        self.cycles += tile_math.CYCLES["pack"]
        self.grid.events += 1

    def llk_pack_reconfig_l1_acc(self, enable: int) -> None:
        """From now on the packer adds each tile it packs into the one L1 holds there (enable non-zero), or
        overwrites it (0)."""
        self._compute_only("llk_pack_reconfig_l1_acc")
        self.core.pack_l1_acc = bool(int(enable))

    def PACK(self, _done) -> None:
        """tt-metal's `PACK((statement))`: the statement runs on the pack thread alone. A compute kernel here is one
        thread, so the statement (this call's argument) has run, once."""
        self._compute_only("PACK")

    def pack_tile_t(self, template: str, dst: int, port: int, out_tile: int = 0) -> None:
        """`pack_tile<out_of_order_output>`: this grid always packs at the tile index given (out of order or not)."""
        if template.strip() not in ("true", "false"):
            raise MetalError(f"pack_tile<{template}>: expected true or false")
        self.pack_tile(dst, port, out_tile)

    def tilize_block(self, cb_in: int, a: int, b: int, cols: int | None = None) -> None:
        """tt-metal's `tilize_block(cb_in, tiles, cb_out)`: the 32-row block of row-major data at the front of
        `cb_in` (`tiles` pages: 32 rows `tiles` tiles wide) into `tiles` tiles at the back of `cb_out`.
        `experimental::tilize_block(cb_in, cb_out, rows, cols)` (the D2M kernels'): `rows` such blocks, each `cols`
        tiles wide, one after another."""
        self._convert_blocks("tilize_block", cb_in, a, b, cols)

    def untilize_block(self, cb_in: int, tiles: int, cb_out: int) -> None:
        """`tiles` tiles at the front of `cb_in` into one 32-row block of row-major data at the back of `cb_out`."""
        self._convert_block("untilize_block", cb_in, tiles, cb_out)

    def pack_untilize_block_t(self, _template: str, cb_in: int, cb_out: int, rows: int, cols: int) -> None:
        """`experimental::pack_untilize_block<...>(cb_in, cb_out, rows, cols)`: `rows` rows of `cols` tiles at the
        front of `cb_in` into `rows` 32-row blocks of row-major data at the back of `cb_out` (the template's
        block widths only say how the packer steps through them)."""
        self._convert_blocks("untilize_block", cb_in, cb_out, rows, cols)

    def _convert_blocks(self, call: str, cb_in: int, a: int, b: int, cols: int | None) -> None:
        if cols is None:  # tt-metal's form: (cb_in, tiles, cb_out)
            self._convert_block(call, cb_in, a, b)
            return
        for row in range(int(b)):
            self._convert_block(call, cb_in, int(cols), a, offset=row * int(cols))

    def _convert_block(self, call: str, cb_in: int, tiles: int, cb_out: int, offset: int = 0) -> None:
        """`tiles` pages converted, `offset` pages past the front of `cb_in` and the back of `cb_out`."""
        self._compute_only(call)
        source, target = self._cb(cb_in), self._cb(cb_out)
        if offset + tiles > source.waited or offset + tiles > target.reserved:
            raise MetalError(f"{call} of {offset + tiles} page(s): cb {cb_in} has {source.waited} waited for, "
                             f"cb {cb_out} {target.reserved} reserved")
        for cb, end in ((source, source.popped + offset), (target, target.pushed + offset)):
            if end % cb.config.num_pages + tiles > cb.config.num_pages:
                raise MetalError(f"{call}: the block of {tiles} page(s) wraps around the end of cb {cb.config.port}")
        start, size = source.pointer(source.popped + offset), tiles * source.config.page_size
        data = self.core.l1[start:start + size]
        if call == "tilize_block":
            block = tile_math.from_bytes(data, source.config.data_format).reshape(tile_math.TILE, -1)
            out = tile_math.tilize(block, target.config.data_format)
        else:
            block = tile_math.untilize(data, (tile_math.TILE, tiles * tile_math.TILE), source.config.data_format)
            out = tile_math.to_bytes(block.reshape(-1), target.config.data_format)
        address = target.pointer(target.pushed + offset)
        self.core.l1[address:address + out.numel()] = out
        self.cycles += tiles * (tile_math.CYCLES["unpack"] + tile_math.CYCLES["pack"])
        self.tiles += tiles
        self.grid.events += 1

    def where_tile_t(self, _format: str, cond: int, true: int, false: int, out: int) -> None:
        """`where_tile<DataFormat::...>`: dst[out] takes dst[true]'s element where dst[cond]'s is nonzero, else
        dst[false]'s."""
        self._compute_only("where_tile")
        dst = self.core.dst
        c, t, f = (dst[self._dst_index(i, "where_tile")] for i in (cond, true, false))
        self._set_dst(self._dst_index(out, "where_tile"), torch.where(c != 0, t, f))
        self.cycles += tile_math.sfpu_cycles("where_tile")

    def unary_bcast_init_t(self, _template: str, *cbs) -> None:
        self._compute_only("unary_bcast_init")

    def unary_bcast_t(self, template: str, port: int, tile: int, dst: int) -> None:
        """`unary_bcast<BroadcastType::ROW|COL|SCALAR>`: a CB tile's first row, first column or first value spread
        over a whole dst tile."""
        self._compute_only("unary_bcast")
        kind = template.split("::")[-1].strip().lower()
        if kind not in ("row", "col", "scalar"):
            raise MetalError(f"unary_bcast<{template}>: expected BroadcastType::ROW, COL or SCALAR")
        index = self._dst_index(dst, "unary_bcast")
        self._set_dst(index, tile_math.broadcast(self._cb_tile(port, tile, "unary_bcast"), kind))
        self.cycles += tile_math.CYCLES["unpack"]

    def reduce_init_t(self, _template: str, *cbs) -> None:
        self._compute_only("reduce_init")

    def reduce_tile_t(self, template: str, port: int, scaler_port: int, tile: int, scaler_tile: int, dst: int) -> None:
        """`reduce_tile<PoolType::SUM|MAX|AVG, ReduceDim::REDUCE_ROW|COL|SCALAR>`: the tile reduced along its rows
        (into column 0), columns (into row 0) or both (into [0, 0]), times the scaler tile's first value, combined
        with what dst holds (its first reduction since tile_regs_acquire sets it)."""
        self._compute_only("reduce_tile")
        parts = [p.strip().split("::")[-1] for p in template.split(",")]
        if len(parts) != 2 or parts[0] not in _POOLS or parts[1] not in _REDUCE_DIMS:
            raise MetalError(f"reduce_tile<{template}>: expected <PoolType::SUM|MAX|AVG, ReduceDim::REDUCE_ROW|"
                             "REDUCE_COL|REDUCE_SCALAR>")
        index = self._dst_index(dst, "reduce_tile")
        scaler = self._cb_tile(scaler_port, scaler_tile, "reduce_tile")[0, 0]
        x = self._cb_tile(port, tile, "reduce_tile")
        result = tile_math.reduce(x, parts[0], _REDUCE_DIMS[parts[1]]) * scaler
        first = index not in self.core.dst_written
        self._set_dst(index, result if first else tile_math.combine(self.core.dst[index], result, parts[0]))
        self.core.dst_written.add(index)
        self.cycles += tile_math.CYCLES["fpu"]

    def transpose_wh_tile(self, port: int, tile: int, dst: int) -> None:
        self._compute_only("transpose_wh_tile")
        self._unpack_to_dst(port, tile, self._dst_index(dst, "transpose_wh_tile"), "transpose_wh_tile", True)
        self.cycles += tile_math.CYCLES["sfpu"]

    def matmul_tiles(self, cb_a: int, cb_b: int, tile_a: int, tile_b: int, dst: int, transpose: int = 0) -> None:
        self._compute_only("matmul_tiles")
        index = self._dst_index(dst, "matmul_tiles")
        a, b = self._cb_tile(cb_a, tile_a, "matmul_tiles"), self._cb_tile(cb_b, tile_b, "matmul_tiles")
        self._set_dst(index, tile_math.matmul(self.core.dst[index], a, b, bool(transpose), self.num))
        self.cycles += tile_math.CYCLES["matmul"]

    def matmul_block(self, cb_a: int, cb_b: int, tile_a: int, tile_b: int, dst: int, transpose: int, ct_dim: int,
                     rt_dim: int, kt_dim: int, in1_k_stride: int | None = None) -> None:
        """An rt x ct block of dst: dst[dst + r*ct + c] += A[tile_a + r*kt + k] @ B[tile_b + k*stride + c], over one
        k (tt-metal's matmul_block: the caller steps k) or, given in1_k_stride (experimental::matmul_block), all
        kt of them."""
        self._compute_only("matmul_block")
        rows, cols = range(int(rt_dim)), range(int(ct_dim))
        steps = range(kt_dim) if in1_k_stride is not None else range(1)
        if not rows or not cols or not steps:
            return
        indices = list(range(dst, dst + len(rows) * len(cols)))  # consecutive: inside dst when both ends are
        self._dst_index(indices[0], "matmul_block")
        self._dst_index(indices[-1], "matmul_block")
        # every step's tiles at once, k major (each dst tile's sums still go in k's order)
        stride = in1_k_stride or 0
        a_tiles = [tile_a + r * kt_dim + k for k in steps for r in rows]
        b_tiles = [tile_b + k * stride + c for k in steps for c in cols]
        waited_a, waited_b = self._cb(cb_a).waited, self._cb(cb_b).waited
        last_a, last_b = tile_a + (len(rows) - 1) * kt_dim + len(steps) - 1, tile_b + (len(steps) - 1) * stride + \
            len(cols) - 1
        in_reach = min(tile_a, tile_b, stride) >= 0 and last_a < waited_a and last_b < waited_b
        for step in () if in_reach else range(len(steps)):  # refused as the tiles would be reached, step by step
            for port, waited, tiles in ((cb_a, waited_a, a_tiles[step * len(rows):(step + 1) * len(rows)]),
                                        (cb_b, waited_b, b_tiles[step * len(cols):(step + 1) * len(cols)])):
                bad = next((t for t in tiles if not 0 <= t < waited), None)
                if bad is not None:
                    raise MetalError(f"matmul_block: tile {bad} of cb {port} was not waited for (cb_wait_front "
                                     f"covers {waited} page(s))")
        tile = tile_math.TILE
        a = self._cb_pages(self._cb(cb_a), a_tiles).reshape(len(steps), len(rows), 1, tile, tile)
        b = self._cb_pages(self._cb(cb_b), b_tiles).reshape(len(steps), 1, len(cols), tile, tile)
        acc = self.core.dst[indices].reshape(len(rows), len(cols), tile, tile)
        out = tile_math.matmul_steps(acc, a, b, bool(transpose), self.num)
        self.core.dst[indices] = out.reshape(-1, tile, tile)
        # the engine unpacks both tiles of every product, as matmul_tiles does
        self.cycles += len(steps) * len(indices) * (tile_math.CYCLES["matmul"] + 2 * tile_math.CYCLES["unpack"])
        self.tiles += len(steps) * len(indices)

    def __getattr__(self, name: str):
        """The table-driven families: FPU binary (`add_tiles`), SFPU binary (`add_binary_tile`), SFPU unary
        (`exp_tile`), and their `_init` calls (templated or not), which configure the engines and compute nothing
        here. Each is looked up once per kernel thread (kept as an attribute)."""
        call = self._family_call(name)
        self.__dict__[name] = call
        return call

    def _family_call(self, name: str):
        if name.removesuffix("_t").endswith(("_init", "_uninit")) or name in _CONFIG_CALLS:  # `_t`: templated
            return lambda *args: None
        if name in tile_math.FPU_BINARY:
            return lambda a, b, ta, tb, dst: self._fpu(name, a, b, ta, tb, dst)
        if name in tile_math.SFPU_BINARY:
            return lambda a, b, out=None: self._sfpu_binary(name, a, b, a if out is None else out)
        if name.removesuffix("_t") in tile_math.SFPU_BINARY:  # told the tiles' format (integer tiles' bitwise ops)
            return lambda _format, a, b, out: self._sfpu_binary(name.removesuffix("_t"), a, b, out)
        if name in tile_math.SCALAR_BINARY:
            return lambda dst, *params: self._sfpu_scalar(name, dst, *params)
        base = name.removesuffix("_int32")  # an op's entry point for si32 tiles computes the same values
        if base.endswith("_tile") and base[:-5] in tile_math.SFPU_UNARY:
            return lambda dst, *scalars: self._sfpu_unary(base[:-5], dst)
        raise MetalError(f"'{name}' is not part of the simulated kernel API")

    def _fpu(self, name: str, cb_a: int, cb_b: int, tile_a: int, tile_b: int, dst: int) -> None:
        self._compute_only(name)
        index = self._dst_index(dst, name)
        a, b = self._cb_tile(cb_a, tile_a, name), self._cb_tile(cb_b, tile_b, name)
        self._set_dst(index, tile_math.fpu(name, a, b, self.num))
        self.cycles += tile_math.CYCLES["fpu"]

    def _int_call(self, template: str, name: str) -> None:
        """A compute call templated on an integer DataFormat (`<DataFormat::Int32>`)."""
        if template.strip() not in ("DataFormat::Int32", "DataFormat::UInt32", "DataFormat::UInt16"):
            raise MetalError(f"{name}<{template}>: expected an integer DataFormat")
        self._compute_only(name)

    def fill_tile_int_t(self, template: str, dst: int, value: int) -> None:
        """`fill_tile_int<DataFormat::Int32>(dst, value)`: every element of dst tile `dst` the integer `value`."""
        self._int_call(template, "fill_tile_int")
        index = self._dst_index(dst, "fill_tile_int")
        self._set_dst(index, torch.full_like(self.core.dst[index], int(value), dtype=torch.float64))
        self.cycles += tile_math.sfpu_cycles("fill")

    def sfpu_reduce_init_t(self, template: str) -> None:
        """`sfpu_reduce_init<PoolType::SUM, DataFormat::Int32>()`: configures the SFPU's reduction; computes nothing."""
        self._compute_only("sfpu_reduce_init")

    def sfpu_reduce_t(self, template: str, dst: int) -> None:
        """`sfpu_reduce<PoolType::SUM|MAX, DataFormat::Int32, ReduceDim::REDUCE_ROW|REDUCE_COL>(dst)`: each row's
        (column's) elements of the DST tile reduced into its first column (row), the rest zero; an Int32 sum wraps."""
        pool, data_format, dim = (p.strip().split("::")[-1] for p in template.split(","))
        if pool not in ("SUM", "MAX") or dim not in ("REDUCE_ROW", "REDUCE_COL"):
            raise MetalError(f"sfpu_reduce<{template}>: expected PoolType::SUM or MAX and ReduceDim::REDUCE_ROW or "
                             f"REDUCE_COL")
        self._int_call(f"DataFormat::{data_format}", "sfpu_reduce")
        index = self._dst_index(dst, "sfpu_reduce")
        tile, axis = self.core.dst[index], 1 if dim == "REDUCE_ROW" else 0
        reduced = tile.sum(axis, keepdim=True) if pool == "SUM" else tile.amax(axis, keepdim=True)
        if pool == "SUM" and data_format == "Int32":
            reduced = (reduced + 2 ** 31) % 2 ** 32 - 2 ** 31
        out = torch.zeros_like(tile)
        out[(slice(None), slice(0, 1)) if axis else (slice(0, 1), slice(None))] = reduced
        self._set_dst(index, out)
        self.cycles += tile_math.sfpu_cycles("sfpu_reduce")

    def _int_binary(self, template: str, name: str, a: int, b: int, out: int) -> None:
        """`add_int_tile<DataFormat::Int32>(a, b, out)` (sub, mul): DST tiles of integers combined as integers."""
        self._int_call(template, name)
        dst = self.core.dst
        lhs, rhs = (dst[self._dst_index(i, name)].round().long() for i in (a, b))
        result = {"add_int_tile": lhs + rhs, "sub_int_tile": lhs - rhs, "mul_int_tile": lhs * rhs}[name]
        if template.strip() == "DataFormat::Int32":  # wraps as 32-bit two's complement
            result = (result + 2 ** 31) % 2 ** 32 - 2 ** 31
        self._set_dst(self._dst_index(out, name), result.double())
        self.cycles += tile_math.sfpu_cycles(name)

    def add_int_tile_t(self, template: str, a: int, b: int, out: int) -> None:
        self._int_binary(template, "add_int_tile", a, b, out)

    def sub_int_tile_t(self, template: str, a: int, b: int, out: int) -> None:
        self._int_binary(template, "sub_int_tile", a, b, out)

    def mul_int_tile_t(self, template: str, a: int, b: int, out: int) -> None:
        self._int_binary(template, "mul_int_tile", a, b, out)

    def mul_int_tile_init_t(self, template: str) -> None:
        """Configures the SFPU for an integer multiply of `template`'s format; computes nothing."""

    def _sfpu_binary(self, name: str, a: int, b: int, out: int) -> None:
        self._compute_only(name)
        dst = self.core.dst
        result = tile_math.SFPU_BINARY[name](dst[self._dst_index(a, name)], dst[self._dst_index(b, name)])
        self._set_dst(self._dst_index(out, name), result)
        self.cycles += tile_math.sfpu_cycles(name)

    def _sfpu_scalar(self, name: str, index: int, *params: int) -> None:
        """A dst tile combined with scalars in place, each scalar a float's 32 bits or an integer."""
        self._compute_only(name)
        fn, kind = tile_math.SCALAR_BINARY[name]
        arity = fn.__code__.co_argcount - 1 if hasattr(fn, "__code__") else 1
        if len(params) != arity:
            raise MetalError(f"{name} takes a dst index and {arity} scalar parameter(s), got {len(params)}")
        words = [int(param) & 0xFFFFFFFF for param in params]
        scalars = [struct.unpack("<f", word.to_bytes(4, "little"))[0] if kind == "float" else
                   word - (1 << 32) if word >> 31 else word for word in words]
        index = self._dst_index(index, name)
        self._set_dst(index, fn(self.core.dst[index], *scalars))
        self.cycles += tile_math.sfpu_cycles(name)

    def _sfpu_unary(self, name: str, index: int) -> None:
        self._compute_only(f"{name}_tile")
        index = self._dst_index(index, f"{name}_tile")
        self._set_dst(index, tile_math.sfpu_unary(name, self.core.dst[index], self.num))
        self.cycles += tile_math.sfpu_cycles(name)


def _trid(options: str, values, call: str) -> int | None:
    """The transaction id a NoC call with `NocOptions::TXN_ID` names in its `NocOptVals{.trid = t}`, else None."""
    if "TXN_ID" not in options:
        return None
    if not isinstance(values, dict) or "trid" not in values:
        raise MetalError(f"{call}<{options}> names its transaction id as NocOptVals{{.trid = t}}")
    trid = int(values["trid"])
    if not 0 <= trid < 16:
        raise MetalError(f"{call}: transaction id {trid} is not one of 0-15")
    return trid


# the fields naming a NoC endpoint's far side, by the kind of endpoint
_UNICAST_FIELDS = {"noc_x": 0, "noc_y": 0, "addr": 0}.keys()
_DRAM_FIELDS = {"bank_id": 0, "addr": 0}.keys()
_ENDPOINT_FIELDS = {kind: (fields, frozenset(fields)) for kind, fields in
                    {"unicast": ("noc_x", "noc_y", "addr"), "dram": ("bank_id", "addr"),
                     "mcast": ("noc_x_start", "noc_y_start", "noc_x_end", "noc_y_end", "addr")}.items()}
_POOLS = ("SUM", "MAX", "AVG")
_REDUCE_DIMS = {"REDUCE_ROW": "row", "REDUCE_COL": "col", "REDUCE_SCALAR": "scalar"}
_CONFIG_CALLS = frozenset({"init_sfpu", "binary_op_init_common", "unary_op_init_common", "mm_init", "mm_block_init",
                           "compute_kernel_hw_startup", "compute_kernel_hw_startup_t", "matmul_init", "matmul_block_init",
                           "pack_reconfig_data_format", "reconfig_data_format", "reconfig_data_format_srca",
                           "reconfig_data_format_srcb", "copy_tile_to_dst_init_short",
                           "DPRINT", "noc_async_writes_flushed"})
