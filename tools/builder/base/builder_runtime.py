"""Running compiled builder modules on the simulated device and checking them against their goldens."""

from __future__ import annotations

import os
from pathlib import Path

import torch

from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, DebugHooks, release, run_program
from ttmlir.runtime.golden import compare
from ttmlir.runtime.session import make_inputs


class TTBuilderCompileException(Exception):
    """Building or compiling a module failed; the message says where and why."""


class TTBuilderRuntimeException(Exception):
    """Running a compiled module failed on the (simulated) device."""


class TTBuilderGoldenException(Exception):
    """A result differs from its golden by more than the requested tolerance."""


def not_supported(what: str) -> TTBuilderCompileException:
    return TTBuilderCompileException(f"{what} is not supported by this build (ttmlir targets TTNN and TTMetal "
                                     "flatbuffers run on the simulated device; use target='ttnn' or 'ttmetal')")


def execute_fb(compiled_bin, input_output_goldens: dict | None = None, intermediate_goldens: dict | None = None,
               pcc: float = 0.99, atol: float = 1e-08, rtol: float = 1e-05, disable_golden: bool = False,
               device=None, check_pcc: bool = True, check_atol: bool = False, check_rtol: bool = False,
               enable_intermediate_verification: bool = False, bypass_ops: list[str] | None = None,
               save_artifacts: bool = False, artifact_dir: str = ".", exact_numerics: bool = False,
               **_ignored) -> dict:
    """Run every public program of a `.ttnn` binary (a Binary, a path or bytes) with its golden inputs and
    compare outputs (and, with `enable_intermediate_verification`, every op) with the goldens.

    Returns the golden report `{"program_index_N": {"output_0" | loc: metrics}}`; raises
    TTBuilderGoldenException when a checked metric misses its tolerance.
    """
    report, failures = run_and_compare(compiled_bin, input_output_goldens, intermediate_goldens, pcc, atol, rtol,
                                       disable_golden, device, {"pcc": check_pcc, "atol": check_atol,
                                                                "rtol": check_rtol},
                                       enable_intermediate_verification, bypass_ops, save_artifacts, artifact_dir,
                                       exact_numerics)
    if failures:
        raise TTBuilderGoldenException(f"{len(failures)} golden check(s) failed; first: {failures[0]}")
    return report


def run_and_compare(compiled_bin, input_output_goldens: dict | None, intermediate_goldens: dict | None,
                    pcc: float, atol: float, rtol: float, disable_golden: bool, device, checks: dict,
                    enable_intermediate_verification: bool, bypass_ops: list[str] | None = None,
                    save_artifacts: bool = False, artifact_dir: str = ".",
                    exact_numerics: bool = False) -> tuple[dict, list[str]]:
    """execute_fb's work: the golden report and the checks that failed, one line each."""
    from ttrt.runtime import DeviceRuntime, get_current_device_runtime

    if get_current_device_runtime() == DeviceRuntime.Disabled:
        raise TTBuilderRuntimeException("no device runtime is set: call set_current_device_runtime(TTNN)")
    if _is_ttm(compiled_bin):
        if enable_intermediate_verification:
            raise not_supported("intermediate verification of a .ttm (its programs have no per-op outputs)")
        return _run_metal(compiled_bin, input_output_goldens or {}, pcc, atol, rtol, disable_golden, checks,
                          save_artifacts, artifact_dir, exact_numerics)
    binary = _binary(compiled_bin)
    io = input_output_goldens or {}
    bypass = set(bypass_ops or [])
    own_device = device is None
    device = device or MeshDevice(binary.arch(), binary.mesh_shape())
    report: dict = {}
    failures: list[str] = []
    try:
        for index, program in enumerate(binary.programs):
            if program.private:
                continue
            goldens = io.get(index, {})
            given = {i: _chip_input(goldens[f"input_{i}"]) for i in range(len(program.inputs or []))
                     if f"input_{i}" in goldens}
            inputs = make_inputs(binary, index, "randn", 0, given)
            entry = report.setdefault(f"program_index_{index}", {})
            hooks = (DebugHooks.pre_op, DebugHooks.post_op)
            if enable_intermediate_verification and not disable_golden:
                DebugHooks.post_op = _intermediate_check(intermediate_goldens or {}, bypass, entry, pcc, atol, rtol,
                                                         hooks[1])
            try:
                outputs, ctx = run_program(binary, index, inputs, device, exact=exact_numerics)
            except RuntimeFailure as exc:
                raise TTBuilderRuntimeException(f"program {index} (@{program.name}): {exc}") from None
            finally:
                DebugHooks.pre_op, DebugHooks.post_op = hooks
            for i, tensor in enumerate(outputs):
                if not disable_golden and f"output_{i}" in goldens:
                    entry[f"output_{i}"] = _compare_chips(goldens[f"output_{i}"], tensor, pcc, atol, rtol)
            release(program, ctx, outputs)
            failures += [f"program {index} (@{program.name}) {key}: {message}" for key, metrics in entry.items()
                         if (message := _failed(metrics, checks)) and key not in bypass]
            if save_artifacts:
                folder = os.path.join(artifact_dir, f"program_{index}")
                os.makedirs(folder, exist_ok=True)
                for i, tensor in enumerate(outputs):
                    torch.save(tensor.data, os.path.join(folder, f"output_{i}.pt"))
    finally:
        if own_device:
            device.is_open = False
    return report, failures


def _is_ttm(compiled_bin) -> bool:
    if isinstance(compiled_bin, (bytes, bytearray)):
        return bytes(compiled_bin[4:8]) == b"TTM0"
    return not isinstance(compiled_bin, Binary) and os.fspath(compiled_bin).endswith(".ttm")


def _run_metal(compiled_bin, io: dict, pcc, atol, rtol, disable_golden, checks, save_artifacts,
               artifact_dir, exact_numerics: bool = False) -> tuple[dict, list[str]]:
    """A `.ttm`'s public programs on the simulated grid (a grid per chip of a program's mesh, each given its own
    piece of an input sharded in advance), each chip's outputs compared with its goldens."""
    from ttmlir.runtime.metal.program import input_shapes, run_program_on_mesh
    from ttmlir.target import flatbuffer as fbu

    if isinstance(compiled_bin, (bytes, bytearray)):
        data, name = bytes(compiled_bin), "<buffer>"
    else:
        name = os.fspath(compiled_bin)
        with open(name, "rb") as f:
            data = f.read()
    _, root = fbu.load_bytes(data, name, expect="ttm")
    report: dict = {}
    failures: list[str] = []
    for index, program in enumerate(fbu.as_list(root.programs)):
        if program.private:
            continue
        goldens = io.get(index, {})
        generator = torch.Generator().manual_seed(0)
        inputs = [_chip_input(goldens[f"input_{i}"]) if f"input_{i}" in goldens else torch.randn(shape, generator=generator)
                  for i, shape in enumerate(input_shapes(program))]
        try:
            chips, _ = run_program_on_mesh(data, inputs, name=name, program=index, exact=exact_numerics)
        except RuntimeFailure as exc:
            raise TTBuilderRuntimeException(f"program {index} (@{program.name}): {exc}") from None
        entry = report.setdefault(f"program_index_{index}", {})
        for i, tensor in enumerate(chips[0]):
            if not disable_golden and f"output_{i}" in goldens:  # the worst chip's, each against its golden
                entry[f"output_{i}"] = min((compare(golden.float(), chip[i], pcc, atol, rtol) for golden, chip in
                                            zip(_chips(goldens[f"output_{i}"]), chips)),
                                           key=lambda m: ("error" not in m, m["actual_pcc"]))
            if save_artifacts:
                folder = os.path.join(artifact_dir, f"program_{index}")
                os.makedirs(folder, exist_ok=True)
                torch.save(tensor, os.path.join(folder, f"output_{i}.pt"))
        failures += [f"program {index} (@{program.name}) {key}: {message}" for key, metrics in entry.items()
                     if (message := _failed(metrics, checks))]
    return report, failures


def _failed(metrics: dict, checks: dict) -> str | None:
    if "error" in metrics:
        return metrics["error"]
    if checks["pcc"] and metrics["actual_pcc"] < metrics["expected_pcc"]:
        return f"PCC {metrics['actual_pcc']:.6f} < {metrics['expected_pcc']}"
    if (checks["atol"] or checks["rtol"]) and not metrics["allclose"]:
        return f"not allclose (atol={metrics['atol']}, rtol={metrics['rtol']}, max difference {metrics['max']:.3g})"
    return None


def _intermediate_check(goldens: dict, bypass: set, entry: dict, pcc, atol, rtol, user_post):
    def post(binary, program_context, op_context):
        loc = op_context.loc
        # ops lowered from one TTIR op share its location: the one whose value has the TTIR value's size is it
        if loc in goldens and loc not in bypass and op_context.outputs and \
                op_context.outputs[0].volume == next(iter(goldens[loc].values())).numel():
            entry[loc] = _compare_chips(goldens[loc], op_context.outputs[0], pcc, atol, rtol)
        if user_post is not None:
            user_post(binary, program_context, op_context)
    return post


def _chips(golden) -> list[torch.Tensor]:
    """A golden's value per chip (a `{device: tensor}` map, or one tensor for every chip)."""
    return [golden[d] for d in sorted(golden)] if isinstance(golden, dict) else [golden]


def _chip_input(golden):
    """One tensor when every chip gets the same input, else one per chip (an input sharded in advance)."""
    replicated = not isinstance(golden, dict) or len({id(t) for t in golden.values()}) == 1
    return _chips(golden)[0] if replicated else _chips(golden)


def _compare_chips(golden, tensor, pcc, atol, rtol) -> dict:
    """The worst chip's comparison of a (possibly distributed) output with its golden."""
    expected = _chips(golden)
    results = [compare(e, a, pcc, atol, rtol) for e, a in zip(expected, tensor.chip_values(len(expected)))]
    return min(results, key=lambda m: ("error" not in m, m["actual_pcc"]))


def _binary(compiled_bin) -> Binary:
    if isinstance(compiled_bin, Binary):
        return compiled_bin
    if isinstance(compiled_bin, (bytes, bytearray)):
        return Binary(data=bytes(compiled_bin))
    return Binary(os.fspath(compiled_bin))


def execute_py(py_file, input_output_goldens: dict | None = None, pcc: float = 0.99, atol: float = 1e-08,
               rtol: float = 1e-05, disable_golden: bool = False, device=None, check_pcc: bool = True,
               check_atol: bool = False, check_rtol: bool = False) -> dict:
    """Run generated Python (`compile_ttir_to_flatbuffer(..., target="emitpy")`) on the simulated `ttnn` module:
    each program on its golden inputs, its outputs compared with the golden outputs. Programs are the file's
    forward functions, in order, matched with the public programs' goldens in order. The code runs on `device`
    (a mesh device of the runtime, `open_mesh_device`) when given, else on a simulated device of its own."""
    from ttrt.common.emitpy import EmitPyRun

    return _execute_generated(EmitPyRun, py_file, input_output_goldens, pcc, atol, rtol, disable_golden, device,
                              {"pcc": check_pcc, "atol": check_atol, "rtol": check_rtol})


def execute_cpp(cpp_file, input_output_goldens: dict | None = None, pcc: float = 0.99, atol: float = 1e-08,
                rtol: float = 1e-05, disable_golden: bool = False, device=None, check_pcc: bool = True,
                check_atol: bool = False, check_rtol: bool = False) -> dict:
    """`execute_py` for generated C++ (`target="emitc"`): built with g++ against the simulator's TTNN header."""
    from ttrt.common.emitpy import EmitCRun

    return _execute_generated(EmitCRun, cpp_file, input_output_goldens, pcc, atol, rtol, disable_golden, device,
                              {"pcc": check_pcc, "atol": check_atol, "rtol": check_rtol})


def _execute_generated(runner_class, path, io, pcc, atol, rtol, disable_golden, device, checks) -> dict:
    import tempfile
    from types import SimpleNamespace

    import ttnn
    import ttnn.utils
    from ttnn.device import Device

    build_dir = os.path.join(tempfile.gettempdir(), "ttmlir-emit-build")
    runner = runner_class(Path(os.fspath(path)), {}, None, SimpleNamespace(get_artifacts_folder_path=lambda: build_dir))
    io = io or {}
    report, failures = {}, []
    sim = Device(mesh=device) if device is not None else ttnn.open_device()
    ttnn.utils.DeviceGetter.use(sim)
    try:
        names = runner.load()
        runner.open(sim)
        for key, name in zip(sorted(io) if io else range(len(names)), names):
            goldens = io.get(key, {})
            laid_out = runner.make_inputs(name)
            inputs = [_like(t, _chip_input(goldens[f"input_{i}"])) if f"input_{i}" in goldens else t
                      for i, t in enumerate(laid_out)]
            outputs = runner.call(name, inputs)
            entry = report.setdefault(f"program_index_{key}", {})
            for i, tensor in enumerate(outputs):
                if not disable_golden and f"output_{i}" in goldens:
                    entry[f"output_{i}"] = _compare_chips(goldens[f"output_{i}"], tensor.value, pcc, atol, rtol)
            failures += [f"program {key} ({name}) {k}: {message}" for k, metrics in entry.items()
                         if (message := _failed(metrics, checks))]
    except RuntimeFailure as exc:
        raise TTBuilderRuntimeException(f"{path}: {exc}") from None
    finally:
        if device is None:  # the caller's device stays open
            ttnn.close_device(sim)
    if failures:
        raise TTBuilderGoldenException("; ".join(failures))
    return report


def _like(tensor, value):
    """`value` laid out as the generated code's input `tensor` is (its data type, layout and placement)."""
    import ttnn

    return ttnn.from_torch(value, dtype=tensor.dtype, layout=tensor.layout, device=tensor.device(),
                           memory_config=tensor.memory_config())


