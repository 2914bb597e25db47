"""The optimizer's per-op overrides, keyed by an op's location name (`loc("conv1")`):

- `override-conv2d-config=conv1=weights_dtype#bf16:deallocate_activation#true,conv2=...`: fields of the named
  convolutions' `#ttnn.conv2d_config` (the field's name, `#`, its value as the attribute spells it; `activation`
  takes a unary op name).
- `override-conv3d-config=conv3d_1=c_in_block#64:w_out_block#4`: the same for `#ttnn.conv3d_config` (on top of
  the blocking the optimizer chose; the blocks must divide the channels).
- `override-output-layout=add_1=l1:block_sharded:2x2:tile,...`: where the named op's result lives: a buffer
  (dram, l1), a memory layout (interleaved, height/width/block_sharded), a core grid `YxX`, the page layout and the
  data type, in any order and any subset. Only what an op can be moved to without a different computation is
  accepted: the tiled page layout and the result's own data type.
"""

from __future__ import annotations

import re
from dataclasses import replace

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ttmlir import hardware
from ttmlir.dialects import ttnn
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttnn.ttnn_utils import with_fields
from ttmlir.runtime.op_model import SHARDED, TensorSpec

BUFFERS = ("dram", "l1", "system_memory")
MEMORY_LAYOUTS = ("interleaved", *SHARDED)


def named(op: Operation, name: str | None, key: str) -> bool:
    """Whether an override for `key` names `op` (located `name`): its own location, or the one the TTIR op it was
    converted from had (a conversion names its op `<name>_<op>`)."""
    return name is not None and name in (key, f"{key}_{getattr(op, 'ROW', None) and op.ROW.name}")


def split_entries(module: ModuleOp, option: str, text: str, separator: str = ",") -> dict[str, list[str]]:
    """`name=a:b,name2=c` as {name: [a, b], name2: [c]}."""
    entries: dict[str, list[str]] = {}
    for entry in filter(None, text.split(separator)):
        name, eq, params = entry.partition("=")
        if not eq or not name or not params:
            raise PassFailure(module, f"invalid {option} entry '{entry}': expected <op location name>=<parameters>")
        entries[name] = params.split(":")
    return entries


def parse_output_layouts(module: ModuleOp, text: str) -> dict[str, dict]:
    """Each named op's overridden placement, as the fields of a TensorSpec it sets."""
    out: dict[str, dict] = {}
    for name, params in split_entries(module, "override-output-layout", text).items():
        fields: dict = {}
        for p in params:
            if p in BUFFERS:
                fields["buffer_type"] = p
            elif p in MEMORY_LAYOUTS:
                fields["memory_layout"] = p
            elif re.fullmatch(r"\d+x\d+", p):
                fields["grid"] = tuple(int(d) for d in p.split("x"))
            elif p in ("tile", "row_major"):
                fields["tiled"] = p == "tile"
            elif p in hardware.DATA_TYPES:
                fields["dtype"] = p
            else:
                raise PassFailure(module, f"invalid override-output-layout parameter '{p}' for '{name}' (expected a "
                                          f"buffer type, memory layout, grid YxX, tile/row_major or data type)")
        out[name] = fields
    return out


def overridden_spec(op: TTNNOp, current: TensorSpec, fields: dict, name: str) -> TensorSpec:
    """`current` with the override's fields; what cannot be honoured is a located error."""
    if fields.get("tiled", True) is False:
        raise PassFailure(op, f"override-output-layout for '{name}': a row-major result is not supported by this "
                              "build's optimizer (drop 'row_major')")
    if fields.get("dtype", current.dtype) != current.dtype:
        raise PassFailure(op, f"override-output-layout for '{name}': the result is {current.dtype}; changing its data "
                              f"type to {fields['dtype']} would change what the op computes")
    spec = replace(current, **{k: v for k, v in fields.items() if k in ("buffer_type", "memory_layout", "grid")})
    if "buffer_type" in fields and fields["buffer_type"] != "l1" and "memory_layout" not in fields:
        spec = replace(spec, memory_layout=None if fields["buffer_type"] == "system_memory" else "interleaved")
    if spec.buffer_type == "system_memory":
        raise PassFailure(op, f"override-output-layout for '{name}': a device op cannot write its result to the host")
    if not spec.sharded:
        spec = replace(spec, grid=(1, 1))
    return spec


# option -> the op it names, its configuration property and that property's attribute
CONFIG_OVERRIDES = {"override-conv2d-config": ("conv2d", "conv2d_config", ttnn.Conv2dConfigAttr),
                    "override-conv3d-config": ("conv3d", "conv3d_config", ttnn.Conv3dConfigAttr)}


def apply_config_overrides(module: ModuleOp, option: str, text: str, name_of) -> list[Operation]:
    """Set the fields `option` names on the named convolutions' config (the other fields stay); the ops changed."""
    op_name, prop, cls = CONFIG_OVERRIDES[option]
    entries = split_entries(module, option, text)
    kinds = {key: kind for key, kind, _ in cls.FIELDS}
    used: dict[str, Operation] = {}
    for op in module.walk():
        if not isinstance(op, TTNNOp) or op.ROW.name != op_name:
            continue
        name = next((key for key in entries if named(op, name_of(op), key)), None)
        if name is None:
            continue
        used[name] = op
        values = {}
        for param in entries[name]:
            key, hash_, value = param.partition("#")
            if not hash_ or key not in kinds or kinds[key] == "attr":
                raise PassFailure(op, f"invalid {option} parameter '{param}' for '{name}' (expected "
                                      f"<field>#<value>, a field of #{cls.name})")
            values[key] = _config_value(op, option, key, kinds[key], value)
        op.properties[prop] = with_fields(cls, op.properties.get(prop), **values)
    if missing := sorted(set(entries) - set(used)):
        raise PassFailure(module, f"{option} names no {op_name}: '{missing[0]}'")
    return list(used.values())


def _config_value(op: Operation, option: str, key: str, kind, value: str):
    if kind == "bool":
        if value not in ("true", "false"):
            raise PassFailure(op, f"{option}: {key} takes true or false, got '{value}'")
        return value == "true"
    if kind == "int":
        if not re.fullmatch(r"-?\d+", value):
            raise PassFailure(op, f"{option}: {key} takes an integer, got '{value}'")
        return int(value)
    if key == "activation":
        return ttnn.UnaryWithParamAttr((("op_type", value),))
    if isinstance(kind, tuple) and value in kind:
        return value
    raise PassFailure(op, f"{option}: invalid {key} '{value}'"
                          f"{' (expected one of ' + ', '.join(kind) + ')' if isinstance(kind, tuple) else ''}")
