"""`--ttnn-resolve-tt-lang-kernels`: each `ttnn.tt_lang_op` without a `kernel_artifact` gets one from tt-lang's
Python compiler.

The resolver is a function of an importable module (`python-module`.`python-function`, tt-xla's
`tt_torch.tt_lang.resolve_operation` by default), called once per op with keyword arguments: `operation_id` (the
op's `kernel_id`), `version_tag`, `arg_roles`, `shard_spec` (only when set), `mesh_shape` (a list; `[1]` when the
option is empty) and, per operand, its `shapes`, `dtypes` (the element type's text) and `layouts` (the encoding's
text, empty without one). What it returns (bytes or text, the compiled kernel's JSON) becomes the op's
`kernel_artifact`. An op that already has an artifact is left alone, so a module with none to resolve never
imports the resolver.
"""

from __future__ import annotations

import importlib
import io
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, NoneAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from ttmlir.errors import PassFailure


def _text(attribute: Attribute) -> str:
    from ttmlir.asm import TTPrinter

    stream = io.StringIO()
    TTPrinter(stream=stream, use_aliases=False).print_attribute(attribute)
    return stream.getvalue()


def _mesh_shape(text: str, anchor: Operation) -> list[int]:
    if not text:
        return [1]
    shape = []
    for part in text.split(","):
        if not part:
            raise PassFailure(anchor, f'mesh-shape contains an empty component: "{text}". Use a comma-separated '
                                      'list of non-negative integers, e.g. "1,1" or "2,4".')
        if not part.isdigit():
            raise PassFailure(anchor, f'mesh-shape component "{part}" is not a non-negative integer '
                                      f'(full value: "{text}").')
        shape.append(int(part))
    return shape


def _string(op: Operation, name: str) -> str:
    value = op.properties.get(name)
    return value.data if isinstance(value, StringAttr) else ""


def _operand_metadata(op: Operation) -> dict[str, list]:
    shapes, dtypes, layouts = [], [], []
    for value in op.operands:
        kind = value.type
        if isinstance(kind, TensorType):
            shapes.append(list(kind.get_shape()))
            dtypes.append(_text(kind.element_type))
            layouts.append("" if isinstance(kind.encoding, NoneAttr) else _text(kind.encoding))
        else:
            shapes.append([])
            dtypes.append(_text(kind))
            layouts.append("")
    return {"shapes": shapes, "dtypes": dtypes, "layouts": layouts}


@dataclass(frozen=True)
class TTNNResolveTTLangKernelsPass(ModulePass):
    """Attach the tt-lang compiler's artifact to every `ttnn.tt_lang_op` that has none."""

    name: ClassVar[str] = "ttnn-resolve-tt-lang-kernels"
    mesh_shape: str = ""
    python_module: str = "tt_torch.tt_lang"
    python_function: str = "resolve_operation"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        unresolved = [op for op in module.walk() if op.name == "ttnn.tt_lang_op" and not _string(op, "kernel_artifact")]
        if not unresolved:
            return
        mesh = _mesh_shape(self.mesh_shape, unresolved[0])
        try:
            resolve = getattr(importlib.import_module(self.python_module), self.python_function)
        except (ImportError, AttributeError) as error:
            raise PassFailure(unresolved[0], f"module contains {len(unresolved)} unresolved ttnn.tt_lang_op(s) but "
                                             f"the tt-lang resolver entry point is not importable: "
                                             f"`{self.python_module}.{self.python_function}`: {error}. Make sure "
                                             "the tt_torch package is installed in this Python environment.")
        for op in unresolved:
            op.properties["kernel_artifact"] = StringAttr(self._resolve(op, resolve, mesh))

    @staticmethod
    def _resolve(op: Operation, resolve, mesh: list[int]) -> str:
        kernel_id = _string(op, "kernel_id")
        if not kernel_id:
            raise PassFailure(op, "ttnn.tt_lang_op missing required `kernel_id` attribute.")
        version_tag = _string(op, "version_tag")
        if not version_tag:
            raise PassFailure(op, f"ttnn.tt_lang_op '{kernel_id}' missing required `version_tag` attribute.")
        kwargs = dict(operation_id=kernel_id, version_tag=version_tag, mesh_shape=list(mesh),
                      arg_roles=_string(op, "arg_roles"), **_operand_metadata(op))
        if shard_spec := _string(op, "shard_spec"):
            kwargs["shard_spec"] = shard_spec
        try:
            artifact = resolve(**kwargs)
        except Exception as error:  # the resolver is user code: any failure of it is this op's diagnostic
            raise PassFailure(op, f"tt-lang resolve failed for kernel '{kernel_id}': {error}") from error
        if isinstance(artifact, (bytes, bytearray)):
            artifact = bytes(artifact).decode("utf-8", errors="surrogateescape")
        if not isinstance(artifact, str):
            raise PassFailure(op, f"tt-lang resolve for kernel '{kernel_id}' returned {type(artifact).__name__}, "
                                  "not the artifact's bytes or text.")
        if not artifact:
            raise PassFailure(op, f"tt-lang resolve returned an empty artifact for kernel '{kernel_id}'.")
        return artifact
