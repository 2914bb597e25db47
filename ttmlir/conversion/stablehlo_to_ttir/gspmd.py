"""GSPMD's sharding custom calls in TTIR, part of `--convert-stablehlo-to-ttir` (as upstream's GSPMD patterns).

JAX's older partitioner marks a value `stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{devices=[2,1]<=[2]}"}`
and cuts it into per-chip pieces with `@SPMDFullToShardShape` (back with `@SPMDShardToFullShape` after a
`{manual}` @Sharding). A @Sharding feeding a full-to-shard, and a shard-to-full, become `ttir.mesh_shard`;
the @Sharding marks themselves are identities. `mhlo.sharding` strings read: `{replicated}`, `{manual}`,
`{maximal device=N}` and `{devices=[t0,t1,...]<=[N]}` (optionally `last_tile_dim_replicate`).
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, StringAttr, i64
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore
from ttmlir.errors import PassFailure
from ttmlir.conversion.stablehlo_to_ttir.shardy import _enum, _set_func_type, _ttir

SHARDING_TARGETS = ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape")
_DEVICES = re.compile(r"^\{devices=\[([0-9,]+)\](?:<=\[([0-9,]+)\](T\([0-9,]+\))?|([0-9,]+))"
                      r"(\s+last_tile_dim_replicate)?\}$")


class GSPMDSharding(NamedTuple):
    kind: str  # "replicated" | "manual" | "maximal" | "devices"
    tiles: tuple[int, ...] = ()  # per tensor dim, pieces (devices only; without a replicated last dim)
    devices: int = 1
    grid: tuple[int, ...] = ()  # the device iota's shape, `<=[8,4]`: the mesh the devices form
    order: tuple[int, ...] = ()  # the iota's transpose, `T(1,0)`: tile axis k runs along mesh axis order[k]


def parse_gspmd(text: str) -> GSPMDSharding:
    """An `mhlo.sharding` string; a form this build cannot read raises ValueError naming it."""
    text = text.strip()
    if text in ("{replicated}", "{manual}"):
        return GSPMDSharding(text[1:-1])
    if re.fullmatch(r"\{maximal device=\d+\}", text):
        return GSPMDSharding("maximal")
    match = _DEVICES.match(text)
    if match is None:
        raise ValueError(f"unsupported mhlo.sharding '{text}'")
    tiles = tuple(int(t) for t in match.group(1).split(","))
    devices = math.prod(tiles)
    if match.group(5):
        tiles = tiles[:-1]
    grid = tuple(int(t) for t in match.group(2).split(",")) if match.group(2) else (devices,)
    order = tuple(int(t) for t in match.group(3)[2:-1].split(",")) if match.group(3) else ()
    return GSPMDSharding("devices", tiles, devices, grid, order)


def call_target(op: Operation) -> str | None:
    if op.name != "stablehlo.custom_call":
        return None
    attr = op.properties.get("call_target_name") or op.attributes.get("call_target_name")
    return attr.data if isinstance(attr, StringAttr) else None


def sharding_of(op: Operation) -> GSPMDSharding:
    attr = op.attributes.get("mhlo.sharding")
    if not isinstance(attr, StringAttr):
        raise ValueError(f"@{call_target(op)} custom call without an mhlo.sharding string")
    return parse_gspmd(attr.data)


def gspmd_annotated(module: ModuleOp) -> bool:
    return any(call_target(op) in SHARDING_TARGETS for op in module.walk())


def mesh_from_gspmd(module: ModuleOp) -> tuple[int, int] | None:
    """The mesh GSPMD shardings of `module` run on, from the sharding naming the most devices: its device grid
    (`<=[8,4]` is 8x4), else its two split dimensions (`[2,4]` is 2x4; a replicated last one counts), else 1xN."""
    found: GSPMDSharding | None = None
    for op in module.walk():
        attr = op.attributes.get("mhlo.sharding")
        if isinstance(attr, StringAttr):
            try:
                parsed = parse_gspmd(attr.data)
            except ValueError:
                continue
            if parsed.kind == "devices" and (found is None or parsed.devices > found.devices):
                found = parsed
    if found is None:
        return None
    replicas = found.devices // math.prod(found.tiles)  # a replicated last tile dim spans a mesh axis too
    split = [t for t in found.tiles if t > 1] + ([replicas] if replicas > 1 else [])
    if len(found.grid) == 2:
        return found.grid[0], found.grid[1]
    return (split[0], split[1]) if len(split) == 2 else (1, found.devices)


def mesh_shard_props(sharding: GSPMDSharding, mesh: tuple[int, int], direction: str) -> dict:
    if sharding.kind in ("replicated", "maximal") or math.prod(sharding.tiles) == 1:
        kind, shape, dims = ("maximal" if sharding.kind == "maximal" else "replicate"), [1], [-1]
    else:
        split = [d for d, t in enumerate(sharding.tiles) if t > 1]
        if len(split) == 1 and sharding.tiles[split[0]] == mesh[1]:  # along the mesh's columns (rows replicate)
            dims = [-1, split[0]]
        elif len(split) == 1 and sharding.tiles[split[0]] == mesh[0]:
            dims = [split[0], -1]
        elif len(split) == 2 and sharding.order in ((), (0, 1), (1, 0)) and \
                (sharding.tiles[split[0]], sharding.tiles[split[1]]) == tuple(mesh[a] for a in (sharding.order or (0, 1))):
            dims = [-1, -1]  # per mesh axis, the tensor dim it splits
            for axis, dim in zip(sharding.order or (0, 1), split):
                dims[axis] = dim
        else:
            raise ValueError(f"tiles {list(sharding.tiles)} do not map onto the {mesh[0]}x{mesh[1]} mesh")
        kind, shape = "devices", list(sharding.tiles)
    return {"shard_type": _enum(ttcore.ShardTypeAttr, kind),
            "shard_direction": _enum(ttcore.ShardDirectionAttr, direction),
            "shard_shape": DenseArrayBase.from_list(i64, shape), "shard_dims": DenseArrayBase.from_list(i64, dims)}


def convert_gspmd_to_ttir(module: ModuleOp) -> None:
    """Lower the GSPMD sharding custom calls of `module` to `ttir.mesh_shard` (in place)."""
    ops = [op for op in module.walk() if call_target(op) in SHARDING_TARGETS]
    if not ops:
        return
    mesh = mesh_from_gspmd(module) or (1, 1)
    if ttcore.MeshesAttr.name not in module.attributes:
        module.attributes[ttcore.MeshesAttr.name] = ttcore.MeshesAttr((("mesh", mesh),))
    for op in ops:
        target = call_target(op)
        try:
            if target == "SPMDFullToShardShape":
                marker = op.operands[0].owner
                source = marker if call_target(marker) == "Sharding" else op
                if _presharded_argument(source.operands[0]):  # arrives as this chip's piece: no split
                    func = source.operands[0].block.parent_op()
                    local = Rewriter.replace_value_with_new_type(source.operands[0], op.results[0].type)
                    op.results[0].replace_all_uses_with(local)
                    Rewriter.erase_op(op)
                    _set_func_type(func)
                    continue
                props = mesh_shard_props(sharding_of(source), mesh, "full_to_shard")
            elif target == "SPMDShardToFullShape":
                props = mesh_shard_props(sharding_of(op), mesh, "shard_to_full")
            else:
                continue
        except ValueError as error:
            raise PassFailure(op, f"error trying to parse GSPMD annotation: {error}") from None
        Rewriter.replace_op(op, _ttir("mesh_shard", [op.operands[0]], op.results[0].type, **props))
    for op in ops:
        if call_target(op) == "Sharding" and op.parent is not None:  # a mark only: the value itself
            op.results[0].replace_all_uses_with(op.operands[0])
            Rewriter.erase_op(op)


def _presharded_argument(value) -> bool:
    from xdsl.dialects.func import FuncOp
    from xdsl.ir import BlockArgument

    if not isinstance(value, BlockArgument) or not isinstance(func := value.block.parent_op(), FuncOp):
        return False
    attrs = func.arg_attrs.data[value.index].data if func.arg_attrs is not None else {}
    status = attrs.get("ttcore.shard_status")
    return status is not None and status.data.value == "presharded"
