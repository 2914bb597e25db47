"""`--ttnn-file-split`: generated Python in files: const-eval functions in `emitpy.file "consteval"`, the rest
(imports, globals, forward functions, input generators, `main`) in `emitpy.file "main"`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from ttmlir.dialects import emitpy

CONST_EVAL = "const_eval"  # the tt.function_type of a const-eval function


def split_files(module: ModuleOp) -> None:
    block = module.body.block
    if any(isinstance(op, emitpy.FileOp) for op in block.ops):
        return
    files = {"main": Block(), "consteval": Block()}
    imports = [op for op in block.ops if isinstance(op, emitpy.ImportOp)]
    for op in list(block.ops):
        kind = op.attributes.get("tt.function_type") if isinstance(op, FuncOp) else None
        target = files["consteval" if kind == StringAttr(CONST_EVAL) else "main"]
        op.detach()
        target.add_op(op)
    for file_id, body in files.items():
        if file_id != "main" and body.first_op is None:
            continue
        if file_id != "main":  # each file imports what the code needs
            for imp in imports:
                body.insert_op_before(imp.clone(), body.first_op)
        block.add_op(emitpy.FileOp.create(properties={"id": StringAttr(file_id)}, regions=[Region(body)]))


@dataclass(frozen=True)
class TTNNFileSplitPass(ModulePass):
    """EmitPy code split into `emitpy.file` ops: "main" and, when there are const-eval functions, "consteval"."""

    name: ClassVar[str] = "ttnn-file-split"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        split_files(module)
