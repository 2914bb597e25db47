"""PyBuda's native-module paths, kept for scripts that import from them (`pybuda._C.backend_api`)."""
