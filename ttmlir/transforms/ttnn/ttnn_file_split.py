"""`--ttnn-file-split`: generated Python in files: const-eval functions in `emitpy.file "consteval"`, the rest
(imports, globals, forward functions, input generators, `main`) in `emitpy.file "main"`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from ttmlir.dialects import emitpy
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import CONST_EVAL

CONST_EVAL_WRAPPER = StringAttr("const_eval_wrapper")  # of a forward function's const-eval caching wrapper
CONSTEVAL_FILE = (StringAttr(CONST_EVAL), CONST_EVAL_WRAPPER)
FORWARD_CPU = StringAttr("forward_cpu")  # a CPU-hoisted function's
HOST_MODULE = "ttir_cpu"  # what generated code imports the host ops of CPU-hoisted functions as


def split_files(module: ModuleOp) -> None:
    block = module.body.block
    if any(isinstance(op, emitpy.FileOp) for op in block.ops):
        return
    files = {"main": Block(), "consteval": Block()}
    imports = [op for op in block.ops if isinstance(op, emitpy.ImportOp)]
    host = [op for op in imports if op.module_name.data == HOST_MODULE]
    wrappers, pending = [], []
    for op in list(block.ops):
        kind = op.attributes.get("tt.function_type") if isinstance(op, FuncOp) else None
        op.detach()
        if kind == FORWARD_CPU:  # a CPU-hoisted function goes where its caller, the next function, goes
            pending.append(op)
            continue
        if op in host:
            continue
        target = files["consteval" if kind in CONSTEVAL_FILE else "main"]
        if pending and isinstance(op, FuncOp):
            if host and not any(o.name == host[0].name and o.module_name == host[0].module_name for o in target.ops):
                _add_import(target, host[0].clone())
            for func in pending:
                target.add_op(func)
            pending = []
        target.add_op(op)
        if kind == CONST_EVAL_WRAPPER:
            wrappers.append(op)
    if wrappers:  # main imports each forward function's const-eval wrapper from the other file, declared there
        main = files["main"]
        last_import = [op for op in main.ops if isinstance(op, emitpy.ImportOp)][-1]
        for wrapper in reversed(wrappers):
            main.insert_op_after(FuncOp.external(wrapper.sym_name.data, wrapper.function_type.inputs.data,
                                                 wrapper.function_type.outputs.data), last_import)
        main.insert_op_after(emitpy.ImportOp.create(properties={
            "module_name": StringAttr("consteval"), "members_to_import": ArrayAttr([w.sym_name for w in wrappers])}),
            last_import)
    for file_id, body in files.items():
        if file_id != "main" and body.first_op is None:
            continue
        if file_id != "main":  # each file imports what the code needs
            for imp in reversed([i for i in imports if i not in host]):
                body.insert_op_before(imp.clone(), body.first_op)
        block.add_op(emitpy.FileOp.create(properties={"id": StringAttr(file_id)}, regions=[Region(body)]))


def _add_import(body: Block, imp: emitpy.ImportOp) -> None:
    """`imp` after the file's imports (at its top when it has none yet)."""
    last = [op for op in body.ops if isinstance(op, emitpy.ImportOp)]
    if last:
        body.insert_op_after(imp, last[-1])
    elif body.first_op is not None:
        body.insert_op_before(imp, body.first_op)
    else:
        body.add_op(imp)


@dataclass(frozen=True)
class TTNNFileSplitPass(ModulePass):
    """EmitPy code split into `emitpy.file` ops: "main" and, when there are const-eval functions, "consteval"."""

    name: ClassVar[str] = "ttnn-file-split"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        split_files(module)
