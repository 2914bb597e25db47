"""Seed 002's "profiler" section, run as written (its log directory a temporary one): every op run inside
`trace` lands in the profiler's reports."""

import csv
import json

import pytest
import torch

from builder.base.builder_apis import *  # noqa: F401,F403
from builder.ttir.ttir_builder import TTIRBuilder
from profiler import *  # noqa: F401,F403


def test_the_seed_profiler_section_writes_the_ops_reports(tmp_path):
    log_dir = str(tmp_path / "profiler")
    with trace(log_dir, 8086):  # noqa: F405
        def module3(builder: TTIRBuilder):
            @builder.device_module
            def module(builder: TTIRBuilder):
                @builder.func([(32, 32), (32, 32), (32, 32)], [torch.float32, torch.float32, torch.float32])
                def model(in0: Operand, in1: Operand, in2: Operand, builder: TTIRBuilder):  # noqa: F405
                    add = builder.add(in0, in1)
                    exp = builder.exp(in2)
                    return builder.multiply(add, exp)

        new_module, builder = build_module(module3, "ttir")  # noqa: F405
        print(new_module)

        import _ttmlir_runtime as tt_runtime

        tt_runtime.runtime.set_current_device_runtime(tt_runtime.runtime.DeviceRuntime.TTNN)
        mesh_options = tt_runtime.runtime.MeshDeviceOptions()
        mesh_options.dispatch_core_type = tt_runtime.runtime.DispatchCoreType.ETH
        mesh_options.mesh_shape = (1, 1)
        device = tt_runtime.runtime.open_mesh_device(mesh_options)

        compiled_bin, input_output_goldens, intermediate_goldens = compile_ttir_module_to_flatbuffer(  # noqa: F405
            new_module,
            builder,
        )

        golden_report = execute_fb(compiled_bin, input_output_goldens, intermediate_goldens, device=device)  # noqa

        tt_runtime.runtime.close_mesh_device(device)
    with open(tmp_path / "profiler" / "ops_perf_results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    device_ops = [r["OP CODE"] for r in rows if r["OP TYPE"] == "tt_dnn_device"]
    assert {"ttnn.add", "ttnn.exp", "ttnn.multiply"} <= set(device_ops)
    events = json.loads((tmp_path / "profiler" / "trace.json").read_text())
    assert events["metadata"]["tracy_port"] == 8086
    assert [e["name"] for e in events["traceEvents"] if e.get("cat") == "op"] == device_ops
    assert (tmp_path / "profiler" / "tracy_ops_times.csv").read_text().startswith("name,loc,host duration [ns]")


def test_a_port_that_is_not_one_is_refused(tmp_path):
    with pytest.raises(Exception, match="port must be a TCP port number"):
        with trace(str(tmp_path), 70000):  # noqa: F405
            pass
