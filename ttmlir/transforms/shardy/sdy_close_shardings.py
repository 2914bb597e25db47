"""`--sdy-close-shardings`: every open dimension sharding (`{"x", ?}`, `{?}`) becomes closed: analysis is done."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy

SHARDING = "sdy.sharding"


def close(s: sdy.Sharding) -> sdy.Sharding:
    return s._replace(dims=tuple(sdy.DimSharding(d.axes) for d in s.dims))


def _close_attr(attr):
    if isinstance(attr, sdy.ShardingAttr):
        return sdy.ShardingAttr(close(attr.data))
    if isinstance(attr, sdy.ShardingPerValueAttr):
        return sdy.ShardingPerValueAttr(tuple(close(s) for s in attr.data))
    return attr


@dataclass(frozen=True)
class SdyCloseShardingsPass(ModulePass):
    """Close tensor shardings and drop replicated axes."""

    name = "sdy-close-shardings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if SHARDING in inner.attributes:
                inner.attributes[SHARDING] = _close_attr(inner.attributes[SHARDING])
            for key in ("in_shardings", "out_shardings", "sharding", "out_sharding"):
                if key in inner.properties:
                    inner.properties[key] = _close_attr(inner.properties[key])
            if isinstance(inner, FuncOp):
                for key in ("arg_attrs", "res_attrs"):
                    attrs = getattr(inner, key)
                    if attrs is not None:
                        setattr(inner, key, ArrayAttr([DictionaryAttr({k: _close_attr(v) for k, v in d.data.items()})
                                                       for d in attrs.data]))
