"""`ttrt emitpy` / `ttrt emitc`: run generated Python (`--mlir-to-python`) or C++ (`--mlir-to-cpp`, built with
g++ against the simulator's TTNN header) on the simulated `ttnn` module.

A file's programs are its functions `f` that have a `create_inputs_for_f`. Each runs on what that function makes
or, with `--flatbuffer`, on the inputs `ttrt run` gives the same program of the matching `.ttnn`, whose outputs
the generated code's must then equal bit for bit (the same kernels compute both).
"""

from __future__ import annotations

import contextlib
import re
import runpy
import sys
import types
import time
from pathlib import Path

import torch

from ttmlir.runtime import RuntimeFailure

INPUTS_PREFIX = "create_inputs_for_"


@contextlib.contextmanager
def generated_code_imports():
    """Generated code imports `ttnn`, `utils` (the simulated ttnn's helpers) and `ttir_cpu` (its host ops) by those
    names."""
    import ttnn.ttir_cpu
    import ttnn.utils

    modules = {"utils": ttnn.utils, "ttir_cpu": ttnn.ttir_cpu}
    saved = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


FILE_MARK = re.compile(r'^# File: "([^"]+)"$', re.MULTILINE)


def load(path: Path) -> dict:
    """The namespace of the generated file's "main" part; its other `# File:` parts (const-eval functions) are the
    modules "main" imports, by their names."""
    text = path.read_text()
    marks = list(FILE_MARK.finditer(text))
    parts = {m.group(1): (text[:m.start()].count("\n"), text[m.end():marks[i + 1].start() if i + 1 < len(marks)
                                                            else len(text)]) for i, m in enumerate(marks)}
    with generated_code_imports():
        saved = {name: sys.modules.get(name) for name in parts if name != "main"}
        try:
            for name, (line, source) in parts.items():
                if name != "main":
                    module = types.ModuleType(name)
                    exec(compile("\n" * line + source, str(path), "exec"), module.__dict__)
                    sys.modules[name] = module
            if "main" not in parts:
                return runpy.run_path(str(path), run_name="ttrt_emitpy")
            line, source = parts["main"]
            namespace = {"__name__": "ttrt_emitpy", "__file__": str(path)}
            exec(compile("\n" * line + source, str(path), "exec"), namespace)
            return namespace
        except SyntaxError as exc:
            raise RuntimeFailure(f"{path}:{exc.lineno}: invalid Python: {exc.msg}") from None
        finally:
            for name, module in saved.items():
                sys.modules.pop(name, None) if module is None else sys.modules.__setitem__(name, module)


def programs(namespace: dict) -> list[str]:
    """The forward functions, in the order the file defines them."""
    return [name[len(INPUTS_PREFIX):] for name in namespace
            if name.startswith(INPUTS_PREFIX) and callable(namespace.get(name[len(INPUTS_PREFIX):]))]


def select(names: list[str], spec: str) -> list[int]:
    if spec == "all":
        return list(range(len(names)))
    try:
        index = int(spec)
    except ValueError:
        raise RuntimeFailure(f"--program-index must be 'all' or an integer, got '{spec}'") from None
    if not 0 <= index < len(names):
        raise RuntimeFailure(f"program index {index} is out of range: the file has {len(names)} program(s)")
    return [index]


def matching_flatbuffer(py_file: Path, flatbuffer: Path) -> Path:
    """`--flatbuffer` itself, or in that directory the `.ttnn` named like the Python file."""
    if not flatbuffer.is_dir():
        return flatbuffer
    stem = py_file.name
    while "." in stem:
        stem = stem.rsplit(".", 1)[0]
        for candidate in (flatbuffer / f"{stem}.ttnn", *flatbuffer.rglob(f"{stem}.ttnn")):
            if candidate.is_file():
                return candidate
    raise RuntimeFailure(f"no .ttnn under {flatbuffer} matches {py_file.name}")


class EmitPyRun:
    """One generated file's programs, run `loops` times on one simulated device."""

    def __init__(self, path: Path, args: dict, logger, artifacts):
        self.path, self.args, self.logger, self.artifacts = path, args, logger, artifacts
        self.memory_report: dict = {}

    def load(self) -> list[str]:
        """The file's programs; `make_inputs(name)` and `call(name, inputs)` run them."""
        self.namespace = load(self.path)
        names = programs(self.namespace)
        if not names:
            raise RuntimeFailure(f"{self.path}: no program (a function f with a {INPUTS_PREFIX}f) to run")
        return names

    def open(self, device) -> None:
        """Before a program runs on `device`."""

    def make_inputs(self, name: str) -> list:
        with generated_code_imports():
            return self.namespace[INPUTS_PREFIX + name]()

    def call(self, name: str, inputs: list) -> list:
        with generated_code_imports():
            outputs = self.namespace[name](inputs)
        return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]

    def execute(self) -> dict:
        import ttnn
        import ttnn.utils

        from ttmlir.runtime.executor import DebugHooks

        names = self.load()
        binary = None
        if self.args.get("--flatbuffer"):
            from ttmlir.runtime.executor import Binary

            binary = Binary(matching_flatbuffer(self.path, Path(self.args["--flatbuffer"])))
        results = {}
        loops = max(1, int(self.args["--loops"]))
        hooks = (DebugHooks.pre_op, DebugHooks.post_op)
        for index in select(names, self.args["--program-index"]):
            name = names[index]
            device = ttnn.open_device(arch=self.args.get("--arch") or "wormhole_b0",
                                      mesh_shape=binary.mesh_shape() if binary is not None else (1, 1))
            ttnn.utils.DeviceGetter.use(device)
            self.open(device)
            if self.args.get("--memory"):
                DebugHooks.post_op = self._memory_hook(hooks[1])
            try:
                for loop in range(loops):
                    start = time.perf_counter_ns()
                    perf_start = len(device.context.perf)
                    inputs, expected = self._inputs(name, binary, device)
                    outputs = self.call(name, inputs)
                    duration = time.perf_counter_ns() - start
                    self._check(name, index, loop, inputs, outputs, expected)
                    device_ns = sum(p.kernel_ns for _, p, _, _ in device.context.perf[perf_start:])
                    results.setdefault(f"program_index_{index}", {})[f"loop_{loop}"] = {
                        "program": name, "total_duration_ns": duration,
                        "total_device_kernel_duration_ns": int(device_ns), "ops": len(device.context.perf) - perf_start}
            finally:
                DebugHooks.pre_op, DebugHooks.post_op = hooks
                ttnn.close_device(device)
        if self.args.get("--save-artifacts") and self.memory_report:
            import json

            folder = self.artifacts.binary_folder(str(self.path))
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "memory_results.json").write_text(json.dumps(self.memory_report, indent=2) + "\n")
        return results

    def _memory_hook(self, user_post):
        def post(binary, program_context, op_context):
            self.memory_report[str(len(self.memory_report))] = {
                "loc": op_context.loc, "debug_str": op_context.debug_str,
                **program_context.device.chips[0].memory_report()}
            if user_post is not None:
                user_post(binary, program_context, op_context)
        return post

    def _inputs(self, name: str, binary, device):
        """The program's inputs and, with a flatbuffer, the outputs `ttrt run` computes from the same values."""
        if binary is None:
            return self.make_inputs(name), None
        import ttnn

        from ttmlir.runtime.executor import release, run_program
        from ttmlir.runtime.session import make_inputs
        from ttmlir.runtime.tensor import materialize

        # a function named `main` is `_main` in generated code (--ttnn-tuplify-tensors renames it)
        wanted = (name, "main") if name == "_main" else (name,)
        index = next((i for w in wanted for i, p in enumerate(binary.programs) if p.name == w), None)
        if index is None:
            raise RuntimeFailure(f"{binary.file_path} has no program named '{name}'")
        values = make_inputs(binary, index, self.args.get("--init") or "randn", int(self.args.get("--seed") or 0))
        program = binary.programs[index]
        reference = ttnn.open_device(arch=device.arch(), mesh_shape=binary.mesh_shape())
        outputs, ctx = run_program(binary, index, values, reference.mesh)
        expected = [t.data.clone() for t in outputs]
        release(program, ctx, outputs)
        inputs = [ttnn.Tensor.of(materialize(ref, value, device.mesh, f"program '{name}' input {i}"), device)
                  for i, (ref, value) in enumerate(zip(program.inputs or [], values))]
        return inputs, expected

    def _check(self, name, index, loop, inputs, outputs, expected) -> None:
        import ttnn

        if self.args.get("--print-input-output-tensors"):
            for i, value in enumerate(inputs):
                self.logger.info(f"program {index} ({name}) input {i}:\n{ttnn.to_torch(value)}")
            for i, value in enumerate(outputs):
                self.logger.info(f"program {index} ({name}) output {i}:\n{ttnn.to_torch(value)}")
        if self.args.get("--save-artifacts") and loop == 0:
            folder = self.artifacts.binary_folder(str(self.path)) / f"program_{index}"
            for i, value in enumerate(outputs):
                self.artifacts.save_torch_tensor(folder, f"output_{i}.pt", ttnn.to_torch(value))
        if expected is None:
            return
        if len(expected) != len(outputs):
            raise RuntimeFailure(f"program '{name}': the generated code returns {len(outputs)} outputs, the flatbuffer "
                                 f"{len(expected)}")
        for i, (want, got) in enumerate(zip(expected, outputs)):
            got = ttnn.to_torch(got)
            if want.shape != got.shape or not _identical(want, got):
                raise RuntimeFailure(f"program '{name}' output {i} differs from the flatbuffer's ({_difference(want, got)})")


def _identical(want: torch.Tensor, got: torch.Tensor) -> bool:
    """Equal values, NaN where the other has NaN (the same kernels on the same inputs)."""
    if want.dtype != got.dtype:
        return False
    if want.is_floating_point():
        return torch.allclose(want, got, rtol=0, atol=0, equal_nan=True)
    return torch.equal(want, got)


def _difference(want: torch.Tensor, got: torch.Tensor) -> str:
    if want.shape != got.shape:
        return f"shape {list(got.shape)} vs {list(want.shape)}"
    diff = (want.double() - got.double()).abs()
    return f"max abs difference {diff.max().item():.6g}"


class EmitCRun(EmitPyRun):
    """A generated `.cpp`, built with g++ against the shipped TTNN header, its op calls run by the simulator."""

    def load(self) -> list[str]:
        from ttnn.emitc import build

        if self.path.suffix == ".so":
            raise RuntimeFailure(f"{self.path}: a prebuilt shared object is not run here; give the generated .cpp "
                                 "(ttrt emitc builds it against the simulator's TTNN header)")
        build_dir = Path(self.artifacts.get_artifacts_folder_path()) / "emitc-build"
        self.library, names = build(self.path, build_dir)
        return names

    def open(self, device) -> None:
        from ttnn.emitc import Bridge

        self.bridge = Bridge(self.library, device)

    def make_inputs(self, name: str) -> list:
        return self.bridge.run(f"ttsim_inputs_{name}", [])

    def call(self, name: str, inputs: list) -> list:
        return self.bridge.run(f"ttsim_run_{name}", inputs)
