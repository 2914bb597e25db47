"""`--ttnn-load-input-tensors`: `load_inputs_for_<fn>()` for each forward function that takes inputs, and a `main()`.

The alternative to `--ttnn-create-input-gens` for real data: each input is read by `ttnn.load_tensor` from
`<tensor-load-directory>/<tensor-load-file-prefix><i>.tensorbin` (`arg0.tensorbin`, ... by default), `i` counting
the function's inputs in order, onto the device when its signature places it there. Runs after
`--ttnn-tuplify-tensors`."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType, TupleType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.transforms.ttnn.ttnn_create_input_gens import add_main, input_function
from ttmlir.transforms.ttnn.ttnn_tuplify_tensors import forward_functions


def _has_inputs(func) -> bool:
    return any(not isinstance(t, TupleType) or t.types.data for t in func.function_type.inputs.data)


@dataclass(frozen=True)
class TTNNLoadInputTensorsPass(ModulePass):
    """`load_inputs_for_<fn>` (a ttnn.load_tensor per input) per forward function with inputs, and `main`."""

    name: ClassVar[str] = "ttnn-load-input-tensors"
    tensor_load_directory: str = ""
    tensor_load_file_prefix: str = "arg"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        funcs = [func for func in forward_functions(module) if _has_inputs(func)]
        loaders = {}
        for func in funcs:
            index = itertools.count()
            loaders[func.sym_name.data] = loader = input_function(
                func, f"load_inputs_for_{func.sym_name.data}",
                lambda props, device, tensor_type: self._load(next(index), device, tensor_type))
            func.parent_block().insert_op_after(loader, func)
        add_main(module, funcs, loaders)

    def _load(self, index: int, device: SSAValue | None, tensor_type: TensorType) -> Operation:
        name = f"{self.tensor_load_file_prefix}{index}.tensorbin"
        path = f"{self.tensor_load_directory}/{name}" if self.tensor_load_directory else name
        return ttnn.TTNN_OP_CLASSES["load_tensor"].create(operands=[device] if device is not None else [],
                                                          properties={"file_path": StringAttr(path)},
                                                          result_types=[tensor_type])
