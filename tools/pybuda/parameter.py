"""`pybuda.parameter.Parameter`: a module's weight (the class lives with the modules)."""

from pybuda.module import Parameter

__all__ = ["Parameter"]
