"""`pybuda.query`: node predicates (`name_regex`, `op_type`, combined with `&`, `|` and `negate()`) over the nodes of
a compiled module's graph (`pybuda._C.graph.Graph`, from `pybuda_compile`'s results). A name matches a regex whole;
an op type matches the op's name without its dialect ("matmul" matches ttir.matmul and ttnn.matmul)."""

from __future__ import annotations

import re
from enum import Enum

from pybuda._C.graph import Graph, Node
from pybuda.config import PyBudaError


class NodePredicateType(Enum):
    Negate = 1
    And = 2
    Or = 3
    NameRegex = 4
    LayerRegex = 5
    OpType = 6


# how each kind of predicate judges a node, given its value (a leaf's string or the sub-predicates)
_MATCH = {
    NodePredicateType.NameRegex: lambda value, node: re.fullmatch(value, node.name) is not None,
    NodePredicateType.OpType: lambda value, node: node.op_type.rpartition(".")[2] == value,
    NodePredicateType.Negate: lambda value, node: not value.matches(node),
    NodePredicateType.And: lambda value, node: value[0].matches(node) and value[1].matches(node),
    NodePredicateType.Or: lambda value, node: value[0].matches(node) or value[1].matches(node),
}


class NodePredicateBuilder:
    def __init__(self, ty: NodePredicateType, value):
        if ty not in _MATCH:
            raise PyBudaError(f"node predicate {ty.name} is not supported: graph nodes here carry no layer names "
                              "(name_regex and op_type are)")
        self.ty, self.value = ty, value

    def negate(self) -> "NodePredicateBuilder":
        return NodePredicateBuilder(NodePredicateType.Negate, self)

    def __and__(self, other: "NodePredicateBuilder") -> "NodePredicateBuilder":
        return NodePredicateBuilder(NodePredicateType.And, (self, other))

    def __or__(self, other: "NodePredicateBuilder") -> "NodePredicateBuilder":
        return NodePredicateBuilder(NodePredicateType.Or, (self, other))

    def matches(self, node: Node) -> bool:
        return _MATCH[self.ty](self.value, node)

    def select(self, graph: Graph) -> list[str]:
        """The names of the graph's nodes this predicate matches, in program order."""
        return [name for name in graph.nodes() if self.matches(graph.node(name))]

    def to_json(self) -> dict:
        value = self.value.to_json() if self.ty == NodePredicateType.Negate else \
            [v.to_json() for v in self.value] if isinstance(self.value, tuple) else self.value
        return {"type": self.ty.name, "value": value}

    @staticmethod
    def from_json(data: dict) -> "NodePredicateBuilder":
        ty, value = NodePredicateType[data["type"]], data["value"]
        if ty == NodePredicateType.Negate:
            value = NodePredicateBuilder.from_json(value)
        elif isinstance(value, list):
            value = tuple(NodePredicateBuilder.from_json(v) for v in value)
        return NodePredicateBuilder(ty, value)


def name_regex(regex: str) -> NodePredicateBuilder:
    return NodePredicateBuilder(NodePredicateType.NameRegex, regex)


def layer_regex(regex: str) -> NodePredicateBuilder:
    return NodePredicateBuilder(NodePredicateType.LayerRegex, regex)


def op_type(name: str) -> NodePredicateBuilder:
    return NodePredicateBuilder(NodePredicateType.OpType, name)
