"""`pybuda._C.graph`: the graph queries PyBuda scripts make of a compiled module (`CompileResults.initial_graph`,
`.lowered_graph`). A graph here is one of our modules: the TTIR the importer made of the model (tt-buda's initial
graph) or the TTNN module the backend pipeline lowered it to (its lowered Buda graph). Its nodes are the public
functions' arguments (inputs, parameters, constants) and ops, numbered in program order and named by their
location (the importer names each op after the model's node) and, for arguments, by the model's input and
parameter names (or `input_<i>`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pybuda.config import PyBudaError


class NodeType(Enum):
    Input = "input"
    Parameter = "parameter"
    Constant = "constant"
    Op = "op"


class RuntimeTensorTransformType(Enum):
    """How the runtime reshapes a tensor on its way to or from the device. Our binaries take inputs and give
    outputs in the model's own shapes (layout changes happen inside the program), so every tensor has NoTransform."""
    NoTransform = 0
    ReinterpretShape = 1
    Prestride = 2
    EmbeddingIndex = 3
    ConstantInput = 4
    Unpad = 5
    Concatenate = 6


@dataclass(frozen=True)
class RuntimeTensorTransform:
    type: RuntimeTensorTransformType = RuntimeTensorTransformType.NoTransform


@dataclass(frozen=True)
class Node:
    id: int
    name: str
    node_type: NodeType
    op_type: str          # the dialect op ("ttir.matmul", "ttnn.to_layout"); the argument kind for inputs
    shape: tuple[int, ...]


# ttcore.argument_type -> the node type of a function argument
_ARGUMENT_TYPES = {"parameter": NodeType.Parameter, "constant": NodeType.Constant}


class Graph:
    def __init__(self, name: str, module=None, training: bool = False, microbatch: int = 1,
                 arg_names: list[str] | None = None):
        """`module`: an xDSL module or its text (None: an empty graph); `arg_names`: the model's names of the
        public function's arguments, in order (the importer's segment inputs)."""
        self._name, self._training, self._microbatch = name, training, microbatch
        self._nodes: list[Node] = []
        self._outputs: list[tuple[str, tuple[int, ...]]] = []
        if module is not None:
            self._read(_parsed(module) if isinstance(module, str) else module, arg_names or [])

    def _read(self, module, arg_names: list[str]) -> None:
        from xdsl.dialects.func import FuncOp, ReturnOp

        from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import loc_name

        names = {}
        for func in (op for op in module.walk() if isinstance(op, FuncOp)):
            if func.sym_visibility is not None and func.sym_visibility.data == "private":
                continue
            for arg in func.body.block.args:
                kind = _argument_kind(func, arg.index)
                name = arg_names[arg.index] if arg.index < len(arg_names) else f"input_{len(self._nodes)}"
                names[arg] = self._add(name, _ARGUMENT_TYPES.get(kind, NodeType.Input),
                                       kind, _shape(arg.type))
            for op in func.body.block.ops:
                if isinstance(op, ReturnOp):
                    self._outputs += [(names.get(v, f"output_{i}"), _shape(v.type)) for i, v in enumerate(op.operands)]
                    continue
                for i, result in enumerate(op.results):
                    base = loc_name(op) or f"{op.name.split('.')[-1]}_{len(self._nodes)}"
                    names[result] = self._add(base if i == 0 else f"{base}.{i}", NodeType.Op, op.name,
                                              _shape(result.type))

    def _add(self, name: str, node_type: NodeType, op_type: str, shape) -> str:
        taken = {n.name for n in self._nodes}
        unique, k = name, 1
        while unique in taken:  # two ops from one model node (a decomposition) keep distinct names
            unique, k = f"{name}_{k}", k + 1
        self._nodes.append(Node(len(self._nodes), unique, node_type, op_type, shape))
        return unique

    # --- tt-buda's queries ---------------------------------------------------------------------------

    def get_name(self) -> str:
        return self._name

    def enable_training(self) -> bool:
        return self._training

    def get_microbatch(self) -> int:
        return self._microbatch

    def nodes(self) -> list[str]:
        return [n.name for n in self._nodes]

    def node(self, name: str) -> Node:
        return self._nodes[self.get_node_id(name)]

    def has_node_with_id(self, node_id: int) -> bool:
        return 0 <= node_id < len(self._nodes)

    def get_node_name(self, node_id: int) -> str:
        if not self.has_node_with_id(node_id):
            raise PyBudaError(f"graph '{self._name}' has no node {node_id} (it has {len(self._nodes)})")
        return self._nodes[node_id].name

    def get_node_id(self, name: str) -> int:
        for n in self._nodes:
            if n.name == name:
                return n.id
        raise PyBudaError(f"graph '{self._name}' has no node '{name}'")

    def _of(self, *types: NodeType) -> list[Node]:
        return [n for n in self._nodes if n.node_type in types]

    def get_ordered_input_names(self) -> list[str]:
        return [n.name for n in self._of(NodeType.Input)]

    def get_ordered_input_shapes(self) -> list[list[int]]:
        return [list(n.shape) for n in self._of(NodeType.Input)]

    def get_parameter_nodes(self) -> list[Node]:
        return self._of(NodeType.Parameter)

    def get_constant_nodes(self) -> list[Node]:
        return self._of(NodeType.Constant)

    def get_constant_names(self) -> list[str]:
        return [n.name for n in self._of(NodeType.Constant)]

    def get_ordered_intermediate_names(self) -> list[str]:
        outputs = {name for name, _ in self._outputs}
        return [n.name for n in self._of(NodeType.Op) if n.name not in outputs]

    def get_ordered_intermediate_shapes(self) -> list[list[int]]:
        return [list(self.node(name).shape) for name in self.get_ordered_intermediate_names()]

    def get_ordered_output_names(self) -> list[str]:
        return [name for name, _ in self._outputs]

    def get_ordered_output_shapes(self) -> list[list[int]]:
        return [list(shape) for _, shape in self._outputs]

    def get_input_runtime_tensor_transforms(self) -> list[RuntimeTensorTransform]:
        return [RuntimeTensorTransform() for _ in self._of(NodeType.Input)]

    def get_output_runtime_tensor_transforms(self) -> list[RuntimeTensorTransform]:
        return [RuntimeTensorTransform() for _ in self._outputs]

    def op_types(self) -> dict[str, int]:
        """How many ops of each kind the graph holds (`{"ttir.matmul": 2, ...}`)."""
        counts: dict[str, int] = {}
        for n in self._of(NodeType.Op):
            counts[n.op_type] = counts.get(n.op_type, 0) + 1
        return counts

    def __repr__(self) -> str:
        return f"Graph({self._name!r}: {len(self._of(NodeType.Op))} ops, {len(self._nodes)} nodes)"


def get_shape_for_node(graph: Graph, name: str) -> list[int]:
    return list(graph.node(name).shape)


def _parsed(text: str):
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context

    return load_module(make_context(), text, "<graph>")[0]


def _argument_kind(func, index: int) -> str:
    attrs = func.arg_attrs.data[index].data if func.arg_attrs is not None else {}
    kind = attrs.get("ttcore.argument_type")
    text = str(kind) if kind is not None else ""
    return next((k for k in ("parameter", "constant") if k in text), "input")


def _shape(type_) -> tuple[int, ...]:
    shape = getattr(type_, "get_shape", None)
    return tuple(shape()) if shape is not None else ()
