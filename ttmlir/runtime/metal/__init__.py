"""The Metal runtime: a Tensix grid that runs kernels from their C++ source (see grid.py)."""
