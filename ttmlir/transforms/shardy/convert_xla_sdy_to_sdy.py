"""`--convert-xla-sdy-to-sdy`: shardy annotations torch-xla and JAX export as strings become shardy's own.

Their frontend attributes carry shardy text: the module's `mhlo.frontend_attributes = {xla.sdy.meshes =
"{mesh = #sdy.mesh<[...]>}"}` becomes `sdy.mesh` ops, an argument's or result's `xla.sdy.sharding` string its
`sdy.sharding`, and a `stablehlo.custom_call @Sharding` (or `@xla.sdy.FuncResultSharding`) marked with one an
`sdy.sharding_constraint`. A string that is not shardy text is an error naming it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy
from ttmlir.errors import PassFailure
from ttmlir.conversion.stablehlo_to_ttir.gspmd import call_target
from ttmlir.transforms.shardy.sdy_user_priority_propagate import SHARDING, set_func_attr
from ttmlir.transforms.shardy.text import parse_attr

FRONTEND = "mhlo.frontend_attributes"
CONSTRAINT_TARGETS = ("Sharding", "xla.sdy.FuncResultSharding")


def _take(attrs: dict, key: str) -> tuple[dict, str | None]:
    """`attrs` without `mhlo.frontend_attributes[key]`, and that string."""
    front = attrs.get(FRONTEND)
    if not isinstance(front, DictionaryAttr) or not isinstance(front.data.get(key), StringAttr):
        return attrs, None
    rest = {k: v for k, v in front.data.items() if k != key}
    out = {k: v for k, v in attrs.items() if k != FRONTEND}
    if rest:
        out[FRONTEND] = DictionaryAttr(rest)
    return out, front.data[key].data


def _to_constraint(inner: Operation, resolve) -> None:
    """The custom call as an `sdy.sharding_constraint` of the sharding its `xla.sdy.sharding` string names (the
    string through `resolve`)."""
    _, text = _take(dict(inner.attributes), "xla.sdy.sharding")
    if text is None:
        return
    value = parse_attr(resolve(text), inner)
    sharding = value.data[0] if isinstance(value, sdy.ShardingPerValueAttr) else \
        value.data if isinstance(value, sdy.ShardingAttr) else None
    if sharding is None or len(inner.operands) != 1:
        raise PassFailure(inner, f"xla.sdy.sharding of a @{call_target(inner)} is not one sharding")
    Rewriter.replace_op(inner, sdy.ShardingConstraintOp(
        operands=[inner.operands[0]], result_types=[inner.results[0].type],
        properties={"sharding": sdy.ShardingAttr(sharding)}))


def convert_tt_sharding_constraints(module: ModuleOp) -> None:
    """`@tt.sharding_constraint` calls (a custom op's sharding) name mesh axes by position, `mesh_idx_<i>`: with
    the module's 2-d mesh known, they become sharding constraints on its axes."""
    import re

    mesh = next((m for m in module.ops if isinstance(m, sdy.MeshOp)), None)
    axes = [name for name, _ in mesh.mesh.data.axes] if mesh is not None else []

    def resolve(text: str) -> str:
        def axis(match) -> str:
            index = int(match.group(1))
            if index >= len(axes):
                raise PassFailure(module, f"'{match.group(0)}' names no axis of the {len(axes)}-axis mesh")
            return axes[index]
        return re.sub(r"mesh_idx_(\d+)", axis, text)

    for inner in list(module.walk()):
        if call_target(inner) == "tt.sharding_constraint":
            _to_constraint(inner, resolve)


@dataclass(frozen=True)
class ConvertXlaSdyToSdyPass(ModulePass):
    """Convert xla sdy annotations into sdy annotations."""

    name = "convert-xla-sdy-to-sdy"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        attrs, meshes = _take(dict(op.attributes), "xla.sdy.meshes")
        if meshes is not None:
            op.attributes.clear()
            op.attributes.update(attrs)
            parsed = parse_attr(meshes, op)
            if not isinstance(parsed, DictionaryAttr):
                raise PassFailure(op, f"xla.sdy.meshes is not a dictionary of meshes: '{meshes}'")
            block = op.body.block
            for name, mesh in reversed(list(parsed.data.items())):
                if not isinstance(mesh, sdy.MeshAttr):
                    raise PassFailure(op, f"xla.sdy.meshes entry '{name}' is not an #sdy.mesh")
                new = sdy.MeshOp(name, mesh.data)
                block.insert_op_before(new, block.first_op) if block.first_op else block.add_op(new)
        for inner in list(op.walk()):
            if isinstance(inner, FuncOp):
                self._function(inner)
            elif call_target(inner) in CONSTRAINT_TARGETS:
                _to_constraint(inner, lambda text: text)

    @staticmethod
    def _function(func: FuncOp) -> None:
        for key in ("arg_attrs", "res_attrs"):
            attrs = getattr(func, key)
            for i, entry in enumerate(attrs.data if attrs is not None else ()):
                rest, text = _take(dict(entry.data), "xla.sdy.sharding")
                if text is None:
                    continue
                value = parse_attr(text, func)
                if not isinstance(value, sdy.ShardingAttr):
                    raise PassFailure(func, f"xla.sdy.sharding of {key[:3]} {i} is not an #sdy.sharding: '{text}'")
                for name in list(entry.data):
                    set_func_attr(func, i, key, name, rest.get(name))
                set_func_attr(func, i, key, SHARDING, value)
