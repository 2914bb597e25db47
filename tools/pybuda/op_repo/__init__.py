"""`pybuda.op_repo`: the operator repositories a test generator draws ops from, and the types describing an op."""

from pybuda.op_repo.datatypes import (OperandNumInt, OperandNumRange, OperandNumTuple, OperatorDefinition,
                                      OperatorParam, OperatorParamNumber, OperatorRepository,
                                      ShapeCalculationContext, TensorShape)
from pybuda.op_repo.operators import pybuda_operator_repository, pytorch_operator_repository

__all__ = ["OperandNumInt", "OperandNumTuple", "OperandNumRange", "TensorShape", "OperatorParam",
           "OperatorParamNumber", "OperatorDefinition", "OperatorRepository", "ShapeCalculationContext",
           "pybuda_operator_repository", "pytorch_operator_repository"]
