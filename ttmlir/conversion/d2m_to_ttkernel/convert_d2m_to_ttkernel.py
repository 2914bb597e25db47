"""`--convert-d2m-to-ttkernel`: each D2M program's kernels, as functions in the ttkernel dialect.

It takes the unified-thread `d2m.generic`s `--ttir-to-d2m`, `--d2m-grid-selection` and `--d2m-generic-fusion` write
(alone, or in the regions of a `d2m.spatial`) and replaces each by the generic of its kernels: no region, its
threads naming private kernel functions at the end of the module (`#d2m.thread<datamovement,
@datamovement_kernel0, dm_core = 1>`, ..., `#d2m.thread<compute, @compute_kernel2>`), its operands the tensors the
kernels address (`ins`, `outs`) and, in `additionalArgs`, the buffer each circular buffer works in, port by port
(an L1 operand's own shards, or a `d2m.empty` of L1 pages made before the program: a DRAM operand's L1 copy, the
tiles a broadcast or transpose gathers, a matmul's operand blocks, a reduction's stream). Each kernel function
carries `ttkernel.thread` and `ttkernel.arg_spec`, whose operand indices name the CB of a port or a buffer of
`ins`/`outs` (addresses as runtime args every core shares, or compile-time args under
force-compile-time-args). A reduction's scaler becomes a tensor of one tile per core of its output's grid, filled by
a generic of its own. What each generic computes is read off its region (`generics.py`); the kernels are built by
`programs.py` over the operands' layouts (`layouts.py`), once each tensor's memory is chosen (`spill.py`: L1 while
what is live at once fits, else DRAM; a function is built again when its kernels' CBs show it does not fit). Generics filling a tensor with a constant stay: their
values are known when compiling, so the host writes them (`--convert-d2m-to-ttmetal`).

Upstream reaches the same place through more stages (bufferization, d2m-allocate, thread split, DMA lowering,
d2m-generic-regions-to-funcs, then this pass on the outlined functions); the options this pass takes beside its
own (ttnn-mode, force-compile-time-args) are those the pipeline hands those stages: use-tile-matmul,
use-tensor-accessor-dma, num-stream-buffers, max-dst-physical-size-tiles, override-device-shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, ModuleOp, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.errors import PassFailure, derive
from ttmlir.conversion.d2m_to_ttkernel.views import drop_dead_views, shifted_view
from ttmlir.conversion.d2m_to_ttkernel.generics import fill_value, fills_of, plan_generic
from ttmlir.conversion.d2m_to_ttkernel.kernel_functions import lower_kernel_functions
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import ELEMENTS, TILE, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.layouts import maker_of, buffer_empty, device_facts, device_layout, staging_empty
from ttmlir.conversion.d2m_to_ttkernel.programs import Launch, ProgramKernels
from ttmlir.conversion.d2m_to_ttkernel.embedding import launch_embedding
from ttmlir.conversion.d2m_to_ttkernel.batched_matmul import batched_program
from ttmlir.conversion.d2m_to_ttkernel.topk import launch_topk
from ttmlir.conversion.d2m_to_ttkernel.row_major_gather import launch_row_major_gather
from ttmlir.conversion.d2m_to_ttkernel.row_major_relayout import launch_relayout
from ttmlir.conversion.d2m_to_ttkernel.tile_gather import launch_tile_gather
from ttmlir.transforms.d2m.topk_sharding import topk_block_of
from ttmlir.dialects.d2m_embedding import EmbeddingOp
from ttmlir.conversion.d2m_to_ttkernel.spill import lower_within_l1, spill_large, spillable
from ttmlir.conversion.d2m_to_ttkernel.masks import decompose_device_masks
from ttmlir.conversion.ttir_to_d2m.tiles import metal_type
from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import fill_generic
from ttmlir.transforms.d2m.d2m_grid_selection import grid_for
from ttmlir.transforms.ttcore.register_device import device_module_of


# a tensor moved into another layout (host <-> device, regridded); to_device/to_host name the host case
LAYOUT_MOVES = ("d2m.to_layout", "ttir.to_layout", "d2m.to_device", "d2m.to_host")


def _row_major(value: SSAValue) -> bool:
    """Whether `value` is a device tensor kept at its rank in row-major elements (a row-major program's)."""
    t = value.type
    return _on_device(value) and not isinstance(t.element_type, ttcore.TileType) and len(t.get_shape()) > 4


def _moved_on_device(source: SSAValue, dest: SSAValue) -> bool:
    """Whether programs move device tensor `source` into `dest`'s layout: two tiled layouts (tile by tile, or
    through row-major shards where one is collapsed to 2-d and the other kept at its rank orders its tiles
    otherwise), a row-major tensor kept at its rank and a tiled one (`row_major_relayout.py`), the same type; two
    row-major ones of other grids, and two tiled ones kept at their rank ordering their tiles differently, go
    through the host."""
    tiled = [_on_device(v) and isinstance(v.type.element_type, ttcore.TileType) for v in (source, dest)]
    if not (_row_major(source) or _row_major(dest)):
        return not (all(tiled) and _other_tiles(source, dest) and _ranked(source) and _ranked(dest))
    return source.type == dest.type or (_row_major(source) and tiled[1]) or (tiled[0] and _row_major(dest))


def _ranked(value: SSAValue) -> bool:
    """Whether device tensor `value` is kept at its rank (a grid dim per dim)."""
    return len(value.type.get_shape()) > 4


def _other_tiles(source: SSAValue, dest: SSAValue) -> bool:
    """Whether tiled device tensors `source` and `dest` order their tiles differently, so that no tile-by-tile copy
    of their 2-d forms moves one into the other: a shard of one kept at its rank holds several matrices (its tile
    rows are then not the tensor's, shard by shard), or one is kept at its rank (each matrix padded to whole tiles)
    and the other collapsed to 2-d (the matrices' rows one after another) while a matrix's rows are not a whole
    number of tiles."""
    if source.type == dest.type:
        return False
    ranked = [v.type for v in (source, dest) if _ranked(v)]
    if any(set(t.get_shape()[len(t.get_shape()) // 2:-2]) != {1} for t in ranked):
        return True
    return len(ranked) == 1 and ranked[0].encoding.data.logical_shape[-2] % TILE != 0


def _fold(op: Operation) -> bool:
    """Back-to-back moves moved once: a move whose result only the next move reads is dropped, the next moving
    from its source (folded: True), unless no program moves the one into the other's layout."""
    uses = list(op.results[0].uses)
    if len(uses) != 1 or uses[0].operation.name not in LAYOUT_MOVES or uses[0].index != 0:
        return False
    if not _moved_on_device(op.operands[0], uses[0].operation.operands[1]):
        return False
    uses[0].operation.operands[0] = op.operands[0]
    target = op.operands[1]
    op.detach()
    op.erase()
    if not target.uses and isinstance(target.owner, d2m.EmptyOp):
        target.owner.detach()
        target.owner.erase()
    return True


def _on_device(value: SSAValue) -> bool:
    return isinstance(getattr(value.type, "encoding", None), ttcore.MetalLayoutAttr)


def _grid_of(value: SSAValue) -> ttcore.GridAttr:
    """The grid a device tensor's type gives it (its leading half of dims)."""
    shape = value.type.get_shape()
    return ttcore.GridAttr(ttcore.Grid(tuple(shape[:len(shape) // 2])))


def kernel_functions(module: ModuleOp) -> list[FuncOp]:
    """The module's kernel functions (those carrying a `ttkernel.thread`)."""
    return [f for f in module.ops if isinstance(f, FuncOp) and "ttkernel.thread" in f.attributes]


@dataclass
class _FunctionKernels:
    """One function's generics as the generics of their kernels (the kernels go into `builder.kernels`)."""

    func: FuncOp
    device_grid: tuple[int, int]
    options: "ConvertD2MToTTKernelPass"
    chip: dict
    kernels: list[FuncOp]
    dst_physical_tiles: int

    def __post_init__(self):
        self.layouts: dict[SSAValue, ShardLayout] = {}
        opts = self.options
        self.builder = ProgramKernels(
            self.chip, self.kernels, self.layout_of, self.new_buffer, opts.use_tile_matmul,
            opts.use_tensor_accessor_dma, opts.ttnn_mode or not opts.force_compile_time_args, opts.num_stream_buffers,
            self.dst_physical_tiles)

    def layout_of(self, value: SSAValue) -> ShardLayout:
        if value not in self.layouts:
            user = next((u.operation for u in value.uses), self.func)
            self.layouts[value] = device_layout(value, user, self.device_grid)
        return self.layouts[value]

    def before(self, op: Operation, new: list[Operation]) -> None:
        """`new` inserted in the function's body before the op holding `op` (a spatial op holds its generics)."""
        while op.parent_block() is not self.func.body.block:
            op = op.parent_op()
        self.func.body.block.insert_ops_before(new, op)

    def new_buffer(self, layout: ShardLayout, op: Operation) -> SSAValue:
        empty = buffer_empty(layout, self.device_grid)
        derive([empty], op)  # a buffer that does not fit is reported at the op it works for
        self.before(op, [empty])
        self.layouts[empty.result] = layout
        return empty.result

    def fold_moves(self) -> None:
        """Back-to-back moves of tensors moved once (a memref-form move, with no result, is the host program's:
        convert-d2m-to-ttmetal), before the tensors are placed: a device tensor moved to the host and back is then
        one move, into its own layout when nothing changes."""
        if self.options.fold_layouts():
            for move in [op for op in self.func.body.block.ops if op.name in LAYOUT_MOVES and op.results]:
                _fold(move)

    def lower(self) -> None:
        decompose_device_masks(self.func)  # after the folds (what a mask reads is known), before the moves
        moves = [op for op in self.func.body.block.ops if op.name in LAYOUT_MOVES and op.results]
        # results go to the host after the programs computing them: their untilize programs' kernels come after those
        # programs' (as upstream numbers them, in program order)
        to_host = [op for op in moves if _on_device(op.operands[0]) and not _on_device(op.results[0])]
        for move in moves:
            if move not in to_host:
                self.move(move)
        generics = [g for g in self.func.walk() if isinstance(g, d2m.GenericOp) and g.regions]
        scalers = []
        for generic in generics:
            if fills_of(generic):
                continue
            launch = self.program(generic, scalers)
            kernels = self.kernels_generic(launch, generic.attributes["grid"], generic)
            for old, new in zip(generic.results, kernels.results):
                old.replace_all_uses_with(new)
            generic.detach()
            generic.erase()
        for move in to_host:
            if move.results[0].uses:  # (a result moved back to the device reads it there)
                self.move(move)
        drop_dead_views(self.func)
        for scaler in scalers:  # the fills the reductions no longer read, and the tensors they filled
            if not scaler.results[0].uses:
                outputs = list(scaler.outputs)
                scaler.detach()
                scaler.erase()
                for value in outputs:
                    if not value.uses and isinstance(value.owner, d2m.EmptyOp):
                        value.owner.detach()
                        value.owner.erase()

    def kernels_generic(self, launch: Launch, grid: Attribute, op: Operation) -> d2m.GenericOp:
        """The generic of a program's kernels, before `op`: its buffers as `ins` and `outs` (the last), the
        buffers of its CBs as `additionalArgs`, its threads naming its kernels."""
        outs = launch.buffers[len(launch.buffers) - launch.outputs:]
        kernels = d2m.GenericOp.create(
            operands=[*launch.buffers, *launch.cbs], result_types=[out.type for out in outs],
            attributes={"block_factors": ArrayAttr([]), "grid": grid, "indexing_maps": ArrayAttr([]),
                        "iterator_types": ArrayAttr([]), "threads": ArrayAttr(launch.threads)},
            properties={"operandSegmentSizes": DenseArrayBase.from_list(
                i32, [len(launch.buffers) - launch.outputs, launch.outputs, len(launch.cbs)])})
        kernels.location = op.location
        op.parent_block().insert_op_before(kernels, op)
        return kernels

    def move(self, op: Operation) -> None:
        """A move into another layout that takes a program: a host tensor onto a tiled L1 device tensor or one kept
        at its rank (written row-major into shards of its own, then tilized there, as upstream moves host data), a
        tiled L1 tensor back to the host (untilized into row-major shards on its cores first), a device tensor into
        another device layout (copied tile by tile; between tiles and row-major shards kept at their rank, by face
        rows; between collapsed tiles and tiles kept at their rank ordered otherwise, through the latter's row-major
        shards)."""
        source, dest, result = op.operands[0], op.operands[1], op.results[0]
        back = source.owner
        if isinstance(back, Operation) and back.name in LAYOUT_MOVES and _on_device(back.operands[0]) and \
                not _on_device(source) and _on_device(result) and _moved_on_device(back.operands[0], result):
            source = op.operands[0] = back.operands[0]  # device to host to device: from the device
        on_device = [_on_device(v) for v in (source, result)]
        if on_device == [False, True] and self.layout_of(dest).tiled and (self.layout_of(dest).nd or (
                self.layout_of(dest).memory == "l1" and not self.options.ttnn_mode)):
            # host data crosses row-major, as upstream's host cannot tilize: tilized on the cores it lands on
            staging = staging_empty(dest)
            write = d2m.ToLayoutOp.create(operands=[source, staging.result], result_types=[staging.result.type])
            write.location = op.location
            self.before(op, [staging, write])
            self.replace(op, self.builder.launch("tilize", [write.results[0]], dest, op))
        elif on_device == [True, False] and self.layout_of(source).tiled and self.layout_of(source).memory == "l1" \
                and not self.options.ttnn_mode:
            # results cross to the host row-major, as upstream's host cannot untilize: untilized on their cores (a
            # TTNN tensor stays as TTNN lays it out)
            staging = staging_empty(source)
            self.before(op, [staging])
            launch = self.builder.launch("untilize", [source], staging.result, op)
            op.operands[0] = self.kernels_generic(launch, _grid_of(source), op).results[0]
        elif on_device == [True, True] and (_row_major(source) or _row_major(dest)) and source.type != dest.type:
            self.replace(op, launch_relayout(self.builder, source, dest, op))
        elif on_device == [True, True] and _other_tiles(source, dest):
            # tiles kept at their rank and collapsed ones ordered otherwise: through the row-major shards of the one
            # kept at its rank (untilized or tilized in place, moved by face rows from or into the collapsed tiles)
            if _ranked(source):
                staging = staging_empty(source)
                self.before(op, [staging])
                launch = self.builder.launch("untilize", [source], staging.result, op)
                rows = self.kernels_generic(launch, _grid_of(source), op).results[0]
                self.replace(op, launch_relayout(self.builder, rows, dest, op))
            else:
                staging = staging_empty(dest)
                self.before(op, [staging])
                rows = self.kernels_generic(launch_relayout(self.builder, source, staging.result, op),
                                            _grid_of(staging.result), op).results[0]
                self.replace(op, self.builder.launch("tilize", [rows], dest, op))
        elif on_device == [True, True] and self.layout_of(source) != self.layout_of(dest):
            self.replace(op, self.builder.launch("typecast", [source], dest, op, ["same"]))

    def replace(self, op: Operation, launch: Launch) -> None:
        kernels = self.kernels_generic(launch, _grid_of(launch.buffers[-1]), op)
        op.results[0].replace_all_uses_with(kernels.results[0])
        op.detach()
        op.erase()

    def program(self, generic: d2m.GenericOp, scalers: list[d2m.GenericOp]) -> Launch:
        """A generic op's program: its region loads whole shards of its inputs, computes one tile op on them
        (elementwise in a linalg.generic, a reduction or a matmul) and stores the whole output shard; a copy into a
        tensor kept at its rank reads each of its rows (row-major) or tiles where its view names it."""
        if (block := topk_block_of(generic)) is not None:
            return launch_topk(self.builder, generic, block)
        out = generic.outputs[0] if len(generic.outputs) == 1 else None
        grid = generic.attributes.get("grid")
        factors = generic.attributes.get("block_factors")
        layout = self.layout_of(out) if out is not None else None
        if out is None or not isinstance(grid, ttcore.GridAttr) or \
                tuple(grid.data.shape) != (layout.nd[0] if layout.nd else layout.grid) or factors is None or \
                any(f.value.data != 1 for f in factors.data):
            raise PassFailure(generic, "only generics with one output, on its tensor's grid and with block factors "
                                       "of 1 are lowered to TTMetal yet")
        embed = next((o for o in generic.region.walk() if isinstance(o, EmbeddingOp)), None)
        if embed is not None:
            return launch_embedding(self.builder, embed, out, generic)
        if (batched := batched_program(self.builder, generic, out)) is not None:
            return batched
        if layout.nd is not None and not layout.tiled:  # a row-major copy kept at its rank
            return launch_row_major_gather(self.builder, generic, out)
        if any(_on_device(v) and len(v.type.get_shape()) == 4 and not isinstance(v.type.element_type, ttcore.TileType)
               for v in generic.operands):  # (row-major shards of two dims are a host transfer's alone)
            raise PassFailure(generic, "a program on row-major elements of two dims is not lowered to TTMetal yet")
        loads = {op.result: op for op in generic.region.walk() if isinstance(op, d2m.RemoteLoadOp)}
        if layout.nd is not None and any(isinstance(op.source.owner, d2m.ViewLayoutOp) for op in loads.values()):
            return launch_tile_gather(self.builder, generic, out)  # tiles kept at their rank, copied from a view
        stores = [op for op in generic.region.walk() if isinstance(op, d2m.RemoteStoreOp)]
        if len(loads) == 1 and [s.local for s in stores] == list(loads):  # a copy
            (load,) = loads.values()
            source, gather = shifted_view(load.source, generic)
            return self.builder.launch("typecast", [source], out, generic, [gather])
        plan = plan_generic(generic)
        if plan.kind == "matmul":
            if plan.transpose_b and self.options.use_tile_matmul:
                raise PassFailure(generic, "'d2m.tile_matmul' op transpose_b is only supported by tile_matmul_block "
                                           "lowering")
            return self.builder.launch_matmul(*plan.sources, out, generic, plan.transpose_b)
        if plan.reduce_dim:
            value = 1  # an integer (SFPU) reduction has no scaler; its kernels are handed a tile of ones, unused
            if plan.scaler is not None:
                maker = plan.scaler.owner
                if not isinstance(maker, d2m.GenericOp) or not fills_of(maker):
                    raise PassFailure(generic, "a reduction's scaler is a tile filled with a constant")
                scalers.append(maker)
                value = fill_value(maker)
            scaler = self.scaler(layout, self.layout_of(plan.sources[0]).dtype, value, generic)
            return self.builder.launch_reduction(plan.sources, scaler, out, generic, plan.kind, plan.reduce_dim,
                                                 plan.prologue)
        # an input on other cores than the output's (or in another grid) is fetched tile by tile
        sources = list(plan.sources)
        for n, s in enumerate(sources):  # a view narrowing its input (a topk's extract) or moving its tiles (a
            # batch of transposes): its tiles where they are
            if plan.gathers[n] is None and isinstance(s.owner, d2m.ViewLayoutOp) and \
                    (s.type.get_shape() != s.owner.input.type.get_shape() or
                     s.owner.remapping.data != AffineMap.identity(s.owner.remapping.data.num_dims)):
                sources[n], plan.gathers[n] = shifted_view(s, generic)
        gathers = [g if g else None if self.layout_of(s).near(layout) else "same"
                   for s, g in zip(sources, plan.gathers)]
        return self.builder.launch(plan.kind, sources, out, generic, gathers)

    def scaler(self, layout: ShardLayout, dtype: str, value: float, op: Operation) -> SSAValue:
        """A tensor of one tile of `value` per core of `layout`'s grid (a reduction's scaler), filled by a generic."""
        grid = grid_for(layout.grid, self.device_grid)
        empty = d2m.EmptyOp.create(result_types=[metal_type((layout.grid[0] * TILE, layout.grid[1] * TILE),
                                                            ELEMENTS[dtype], "l1", grid)])
        fill = fill_generic(value, empty.result, grid)
        self.before(op, [empty, fill])
        return fill.results[0]


@dataclass(frozen=True)
class ConvertD2MToTTKernelPass(ModulePass):
    """Each D2M generic's kernels, in the ttkernel dialect (see the module doc)."""

    name: ClassVar[str] = "convert-d2m-to-ttkernel"
    ttnn_mode: bool = False
    force_compile_time_args: bool = False
    use_tile_matmul: bool = False
    use_tensor_accessor_dma: bool = False
    num_stream_buffers: int = 2
    max_dst_physical_size_tiles: int = 0  # 0: the chip's dst size
    override_device_shape: tuple[int, ...] = ()
    disable_tolayout_folding: bool = False

    def fold_layouts(self) -> bool:
        return not self.disable_tolayout_folding

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        module = device_module_of(op)
        chip, grid = device_facts(module, op, self.override_device_shape)
        if self.num_stream_buffers < 1:
            raise PassFailure(op, "num-stream-buffers is at least 1")
        dst = int(chip.get("dst_physical_size_tiles") or 16)
        if self.max_dst_physical_size_tiles:
            dst = min(dst, self.max_dst_physical_size_tiles)
        if dst < 2:
            raise PassFailure(op, "max-dst-physical-size-tiles leaves the math thread no dst tile (at least 2)")
        lower_kernel_functions(module, self.force_compile_time_args, chip)
        kernels = kernel_functions(module)  # numbered after the module's kernels
        made = len(kernels)
        for func in [f for f in module.ops if isinstance(f, FuncOp) and f.body.blocks and
                     "ttkernel.thread" not in f.attributes]:
            start = len(kernels)
            if self.ttnn_mode:  # TTNN tensors are where their layouts put them
                builder = _FunctionKernels(func, grid, self, chip, kernels, dst)
                builder.fold_moves()
                spill_large(spillable(func), chip)
                builder.lower()
                continue
            lower_within_l1(func, chip, grid, lambda: _FunctionKernels(func, grid, self, chip, kernels, dst),
                            lambda: kernels.__delitem__(slice(start, None)))
        module.body.block.add_ops(kernels[made:])
