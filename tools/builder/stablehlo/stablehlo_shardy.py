"""StableHLOBuilder's shardy methods (seed 002: shardy annotated graphs, manual computation, sdy all gather).

`builder.tensor_sharding_attr(mesh_name=..., dimension_shardings=[builder.dimension_sharding_attr(axes=[
builder.axis_ref_attr(name="x")], is_closed=True)])` builds `#sdy.sharding<@mesh, [{"x"}]>`; any op method takes
`sharding_attr=builder.tensor_sharding_per_value_attr([...])`; `builder.set_arg_attribute(in0, "sdy.sharding", s)`
annotates an argument; `builder.manual_computation(fn, operands, in_shardings, out_shardings, manual_axes)` runs
`fn` per chip on local pieces.

Goldens keep the global meaning: a sharding annotation or a shardy collective changes no value. Inside a manual
computation each chip's golden is its piece (cut from the operand as the in_sharding says over the manual axes);
the results are the pieces put back together as the out_shardings say; a `stablehlo.all_gather` there
concatenates the pieces of its replica group.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import torch
from xdsl.dialects.builtin import ArrayAttr, DenseIntOrFPElementsAttr, DictionaryAttr, IntegerAttr, TensorType, i64
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, BlockArgument, Operation, Region

from builder.base.builder import BuilderError, Operand
from ttmlir.dialects import sdy
from ttmlir.dialects import stablehlo as shlo

SHARDING = "sdy.sharding"


class ShardyMethods:
    """Mixed into StableHLOBuilder: shardy attributes, argument annotations, manual computations, shardy and
    StableHLO collectives, and the goldens of what they build."""

    # --- attributes ---------------------------------------------------------------------------------

    def axis_ref_attr(self, name: str, sub_axis_info: tuple[int, int] | None = None) -> sdy.AxisRef:
        """`"x"`, or the sub-axis `"x":(pre)size`."""
        return sdy.AxisRef(name, tuple(sub_axis_info) if sub_axis_info else None)

    def dimension_sharding_attr(self, axes: Sequence[sdy.AxisRef], is_closed: bool = True,
                                priority: int | None = None) -> sdy.DimSharding:
        return sdy.DimSharding(tuple(axes), is_closed, priority)

    def tensor_sharding_attr(self, mesh_name: str, dimension_shardings: Sequence[sdy.DimSharding],
                             replicated_axes: Sequence[sdy.AxisRef] = (),
                             unreduced_axes: Sequence[sdy.AxisRef] = ()) -> sdy.ShardingAttr:
        return sdy.ShardingAttr(sdy.Sharding(mesh_name, tuple(dimension_shardings), tuple(replicated_axes),
                                             tuple(unreduced_axes)))

    def tensor_sharding_per_value_attr(self, shardings: Sequence[sdy.ShardingAttr]) -> sdy.ShardingPerValueAttr:
        return sdy.ShardingPerValueAttr(tuple(s.data for s in shardings))

    def axes_ref_list_attr(self, axis_ref_list: Sequence[sdy.AxisRef]) -> sdy.AxisRefListAttr:
        return sdy.AxisRefListAttr(tuple(axis_ref_list))

    def list_of_axis_ref_lists_attr(self, lists: Sequence[sdy.AxisRefListAttr]) -> sdy.ListOfAxisRefListsAttr:
        return sdy.ListOfAxisRefListsAttr(tuple(a.data for a in lists))

    def set_arg_attribute(self, operand: Operand, name: str, attr) -> None:
        """An attribute on the function argument `operand` (`sdy.sharding`, `ttcore.argument_type`, ...)."""
        if not isinstance(operand, BlockArgument) or not isinstance(operand.block.parent_op(), FuncOp):
            raise BuilderError("set_arg_attribute needs an argument of the function being built")
        func = operand.block.parent_op()
        count = len(operand.block.args)
        attrs = list(func.arg_attrs.data) if func.arg_attrs is not None else [DictionaryAttr({})] * count
        attrs[operand.index] = DictionaryAttr({**attrs[operand.index].data, name: attr})
        func.arg_attrs = ArrayAttr(attrs)

    def set_graph_level_check(self, enabled: bool) -> None:
        """Check only the program's inputs and outputs against their goldens, not every op (an op's per-chip
        value inside a sharded graph is not its global golden)."""
        self._graph_level_check = bool(enabled)

    # --- pieces of a tensor over the mesh -----------------------------------------------------------

    def _coords(self, device: int) -> dict[str, int]:
        sizes = list(self._mesh_dict.items())
        return {name: (device // math.prod(s for _, s in sizes[i + 1:])) % size for i, (name, size) in enumerate(sizes)}

    def _dim_part(self, dim: sdy.DimSharding, coords: dict[str, int], manual: set[str] | None) -> tuple[int, int]:
        """(index, count) of the piece of one dimension a chip holds: its axes major to minor."""
        index, count = 0, 1
        for axis in dim.axes:
            if manual is not None and axis.name not in manual:
                continue
            size = self._mesh_dict[axis.name]
            index, count = index * size + coords[axis.name], count * size
        return index, count

    def piece(self, tensor: torch.Tensor, sharding: sdy.Sharding, device: int, manual: set[str] | None = None):
        coords = self._coords(device)
        for d, dim in enumerate(sharding.dims):
            index, count = self._dim_part(dim, coords, manual)
            if count > 1:
                tensor = tensor.chunk(count, d)[index]
        return tensor

    def join(self, pieces: dict[int, torch.Tensor], sharding: sdy.Sharding, manual: set[str]) -> torch.Tensor:
        """The global tensor of per-chip pieces laid out as `sharding` says (over the manual axes)."""
        first = pieces[0]
        shape = [n * self._dim_part(dim, self._coords(0), manual)[1] for n, dim in zip(first.shape, sharding.dims)]
        full = torch.empty(shape, dtype=first.dtype)
        for device, value in pieces.items():
            coords = self._coords(device)
            index = tuple(slice(i * n, (i + 1) * n) for n, (i, _) in
                          zip(value.shape, (self._dim_part(dim, coords, manual) for dim in sharding.dims)))
            full[index] = value
        return full

    # --- ops ----------------------------------------------------------------------------------------

    def manual_computation(self, fn: Callable, operands: Sequence[Operand], in_shardings: Sequence[sdy.ShardingAttr],
                           out_shardings: Sequence[sdy.ShardingAttr], manual_axes: Sequence[str], loc=None):
        """`sdy.manual_computation`: `fn(*local_operands, builder)` built once, run per chip on its pieces."""
        ins, outs, manual = [s.data for s in in_shardings], [s.data for s in out_shardings], set(manual_axes)
        mesh = sdy.Mesh(tuple(self._mesh_dict.items()))
        local_types = []
        for value, sharding in zip(operands, ins):
            shape = sdy.local_shape(value.type.get_shape(), sharding, mesh, manual)
            if shape is None:
                raise BuilderError(f"{value.type} does not split evenly as {sharding}")
            local_types.append(TensorType(value.type.element_type, shape))
        body = Block(arg_types=local_types)
        for arg, value, sharding in zip(body.args, operands, ins):
            golden = self.current_golden(value)
            self._goldens[arg] = {d: self.piece(golden[d], sharding, d, manual) for d in self.devices}
        outer, self._block = self._block, body
        try:
            results = fn(*body.args, self)
        finally:
            self._block = outer
        results = list(results) if isinstance(results, (tuple, list)) else [results]
        body.add_op(sdy.ReturnOp(operands=[results]))
        result_types = [TensorType(v.type.element_type, [n * self._dim_part(dim, self._coords(0), manual)[1] for n, dim
                                                          in zip(v.type.get_shape(), s.dims)])
                        for v, s in zip(results, outs)]
        op = sdy.ManualComputationOp(operands=[list(operands)], result_types=[result_types], regions=[Region(body)],
                                     properties={"in_shardings": sdy.ShardingPerValueAttr(tuple(ins)),
                                                 "out_shardings": sdy.ShardingPerValueAttr(tuple(outs)),
                                                 "manual_axes": sdy.ManualAxesAttr(tuple(manual_axes))})
        op.location = self._location_of(loc)
        self._insert(op)
        for result, golden in zip(op.results, self._cast(op.results, self._evaluate_foreign(op))):
            self._goldens[result] = golden
        return op.results[0] if len(op.results) == 1 else tuple(op.results)

    def sdy_all_gather(self, in0: Operand, gathering_axes: sdy.ListOfAxisRefListsAttr, out_sharding: sdy.ShardingAttr,
                       loc=None) -> Operand:
        """`sdy.all_gather`: the same global value, gathered along `gathering_axes` (`out_sharding` after)."""
        op = sdy.AllGatherOp(operands=[in0], result_types=[in0.type],
                             properties={"gathering_axes": gathering_axes, "out_sharding": out_sharding})
        return self._insert_with_golden(op, loc)

    def all_gather(self, in0: Operand, all_gather_dim: int, replica_groups: Sequence[Sequence[int]], loc=None,
                   unit_attrs=None) -> Operand:
        """`stablehlo.all_gather`: each chip gets its replica group's pieces concatenated along `all_gather_dim`."""
        groups = [list(g) for g in replica_groups]
        shape = list(in0.type.get_shape())
        shape[all_gather_dim] *= len(groups[0])
        groups_attr = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(groups), len(groups[0])]),
                                                         [v for g in groups for v in g])
        return self._build("all_gather", [in0], self._like(in0, shape),
                           {"all_gather_dim": IntegerAttr(all_gather_dim, i64), "replica_groups": groups_attr},
                           loc, unit_attrs)

    def _insert_with_golden(self, op: Operation, loc) -> Operand:
        op.location = self._location_of(loc)
        self._insert(op)
        self._goldens[op.results[0]] = self._cast(op.results, self._evaluate_foreign(op))[0]
        return op.results[0]

    def _evaluate_shardy(self, op: Operation) -> list | None:
        """Goldens of the shardy ops and of the collectives a manual computation runs; None for the rest (StableHLO's
        own goldens)."""
        if isinstance(op, sdy.ManualComputationOp):
            manual = set(op.manual_axes.data)
            pieces = [{d: self.piece(self.current_golden(v)[d], s, d, manual) for d in self.devices}
                      for v, s in zip(op.tensors, op.in_shardings.data)]
            self._evaluate_block(op.body.block, pieces)
            returned = op.body.block.last_op.operands
            return [{d: full for d in self.devices} for full in
                    (self.join(self.current_golden(v), s, manual) for v, s in zip(returned, op.out_shardings.data))]
        if isinstance(op, sdy.ReturnOp):
            return []
        if op.name.startswith("sdy."):  # reshards and collectives move data, not values
            return [self.current_golden(op.operands[0])]
        if op.name == "stablehlo.all_gather":
            dim, groups = shlo.int_of(op.properties["all_gather_dim"]), shlo.ints_of(op.properties["replica_groups"])
            size = op.properties["replica_groups"].type.get_shape()[1]
            golden = self.current_golden(op.operands[0])
            out = {}
            for d in self.devices:
                group = next((groups[i:i + size] for i in range(0, len(groups), size) if d in groups[i:i + size]), [d])
                out[d] = torch.cat([golden[g] for g in group], dim)
            return [out]
        return None

    def golden_maps(self):
        """With a graph-level check, only the programs' inputs and outputs carry goldens."""
        io, intermediates = super().golden_maps()
        return (io, {}) if getattr(self, "_graph_level_check", False) else (io, intermediates)


def with_sharding(method: Callable) -> Callable:
    """An op method that also takes `sharding_attr=` (`#sdy.sharding_per_value`) for the op it builds."""
    def wrapped(self, *args, sharding_attr: sdy.ShardingPerValueAttr | None = None, **kwargs):
        result = method(self, *args, **kwargs)
        if sharding_attr is not None:
            value = result[0] if isinstance(result, tuple) else result
            value.owner.attributes[SHARDING] = sharding_attr
        return result
    wrapped.__name__, wrapped.__doc__ = method.__name__, method.__doc__
    return wrapped
