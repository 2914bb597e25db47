"""EmitC end to end: generated C++ built with g++ against the simulator's TTNN header and run by `ttrt emitc`,
its outputs equal to `ttrt run`'s on the same inputs."""

from pathlib import Path

import pytest

from ttmlir.compiler import compile_ttir, lower
from ttmlir.target.host_cpp import translate_to_cpp

MODELS = Path(__file__).resolve().parents[1] / "lit" / "Models"


def run_emitc(tmp_path: Path, cpp: str, binary: bytes | None, **flags) -> dict:
    from ttrt.common.api import API

    (tmp_path / "model.cpp").write_text(cpp)
    args = {"binary": str(tmp_path / "model.cpp"), "--result-file": str(tmp_path / "emitc_results.json"),
            "--artifact-dir": str(tmp_path / "artifacts"), **flags}
    if binary is not None:
        (tmp_path / "model.ttnn").write_bytes(binary)
        args["--flatbuffer"] = str(tmp_path / "model.ttnn")
    _, (result,) = API.EmitC(args=args)()
    return result


@pytest.mark.parametrize("model", ["mnist_mlp", "transformer_block"])
def test_model_emitc_equals_flatbuffer(tmp_path, model):
    text = (MODELS / f"{model}.mlir").read_text()
    cpp = translate_to_cpp(lower(text, "<test>", "ttir-to-emitc-pipeline"))
    result = run_emitc(tmp_path, cpp, compile_ttir(text), **{"--loops": 2})
    assert result["result"] == "pass", result["exception"]
    assert sorted(result["program_results"]["program_index_0"]) == ["loop_0", "loop_1"]


def test_emitc_math_fidelity_is_an_enum(tmp_path):
    """A compute config's math fidelity is tt-metal's enum in C++ and reaches the simulator as the flatbuffer's."""
    text, options = (MODELS / "mnist_mlp.mlir").read_text(), "compute-cfg-math-fidelity=lofi"
    cpp = translate_to_cpp(lower(text, "<test>", "ttir-to-emitc-pipeline", options))
    assert ".math_fidelity = ::tt::tt_metal::MathFidelity::LoFi" in cpp
    result = run_emitc(tmp_path, cpp, compile_ttir(text, pipeline_options=options))
    assert result["result"] == "pass", result["exception"]


def test_emitc_edited_cpp_is_what_runs(tmp_path):
    """The C++ is compiled and run, not the flatbuffer: an edit to it changes the outputs."""
    text = (MODELS / "mnist_mlp.mlir").read_text()
    cpp = translate_to_cpp(lower(text, "<test>", "ttir-to-emitc-pipeline")).replace("ttnn::relu(", "ttnn::sigmoid(", 1)
    result = run_emitc(tmp_path, cpp, compile_ttir(text))
    assert result["result"] == "error" and "differs from the flatbuffer" in result["exception"]


def test_emitc_compile_error_is_reported(tmp_path):
    result = run_emitc(tmp_path, "::std::vector<::ttnn::Tensor> f(::std::vector<::ttnn::Tensor> v) { retur v; }\n"
                                 "::std::vector<::ttnn::Tensor> create_inputs_for_f() { return {}; }\n", None)
    assert result["result"] == "error" and "g++ failed" in result["exception"]


SEMAPHORE = """
module {
  func.func @sem() -> () {
    %0 = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %1 = "ttnn.create_global_semaphore"(%0) <{core_range_set = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (1,3)>]>, initial_value = 3 : ui32}> : (!ttnn.device) -> !ttnn.global_semaphore
    "ttnn.reset_global_semaphore"(%1) <{value = 5 : ui32}> : (!ttnn.global_semaphore) -> ()
    return
  }
}
"""


def test_global_semaphore_in_python_and_cpp(tmp_path):
    """A global semaphore is created on its cores and reset, by generated Python and by generated C++ alike."""
    import ttnn
    from ttnn.emitc import Bridge, build
    from ttnn.utils import DeviceGetter

    from ttmlir.target.python import translate_to_python

    made = []
    real = ttnn.create_global_semaphore

    def spy(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    device = ttnn.open_device()
    DeviceGetter.use(device)
    py = translate_to_python(lower(SEMAPHORE, "<test>", "convert-ttnn-to-emitpy"))
    scope = {}
    exec(compile(py.replace("import utils", "from ttnn import utils"), "sem.py", "exec"), scope)
    ttnn.create_global_semaphore = spy
    try:
        scope["sem"]()
        cpp = translate_to_cpp(lower(SEMAPHORE, "<test>", "convert-ttnn-to-emitc"))
        cpp += ("::std::vector<::ttnn::Tensor> f(::std::vector<::ttnn::Tensor> v) { sem(); return v; }\n"
                "::std::vector<::ttnn::Tensor> create_inputs_for_f() { return {}; }\n")
        (tmp_path / "sem.cpp").write_text(cpp)
        library, _ = build(tmp_path / "sem.cpp", tmp_path / "build")
        Bridge(library, device).run("ttsim_run_f", [])
    finally:
        ttnn.create_global_semaphore = real
    assert len(made) == 2
    for semaphore in made:
        assert semaphore.value == 5 and semaphore.cores.num_cores() == 8 and semaphore.device is device
