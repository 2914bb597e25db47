"""EmitC end to end: generated C++ built with g++ against the simulator's TTNN header and run by `ttrt emitc`,
its outputs equal to `ttrt run`'s on the same inputs."""

from pathlib import Path

import pytest

from ttmlir.compiler import compile_ttir, lower
from ttmlir.target.host_cpp import translate_to_cpp
from emit_runners import run_emitc

MODELS = Path(__file__).resolve().parents[3] / "lit" / "Models"




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


PAGED_DECODE = """
func.func @decode(%q: tensor<1x1x4x64xbf16>, %k: tensor<8x4x32x64xbf16>, %v: tensor<8x4x32x64xbf16>, %pages: tensor<1x8xsi32>, %pos: tensor<1xsi32>) -> tensor<1x1x4x64xbf16> {
  %0 = "ttnn.paged_scaled_dot_product_attention_decode"(%q, %k, %v, %pages, %pos) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>, program_config = #ttnn.sdpa_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 8>, q_chunk_size = 32, k_chunk_size = 32, max_cores_per_head_batch = 1>}> : (tensor<1x1x4x64xbf16>, tensor<8x4x32x64xbf16>, tensor<8x4x32x64xbf16>, tensor<1x8xsi32>, tensor<1xsi32>) -> tensor<1x1x4x64xbf16>
  return %0 : tensor<1x1x4x64xbf16>
}
"""


def test_sdpa_program_config_in_python_and_cpp(tmp_path):
    """An SDPA program config schedules the kernel without changing its values (generated Python calls ttnn with
    it); generated C++ spells it in tt-metal's namespace and builds against the simulator's header."""
    import ttnn
    import torch
    from ttnn.emitc import build

    from ttmlir.target.python import translate_to_python

    py = translate_to_python(lower(PAGED_DECODE, "<test>", "convert-ttnn-to-emitpy"))
    config = py.split("program_config=")[1].split("))")[0] + ")"
    assert config.startswith("ttnn.SDPAProgramConfig(compute_with_storage_grid_size=ttnn.CoreCoord(8, 8)")
    device = ttnn.open_device()
    gen = torch.Generator().manual_seed(0)
    q, k, v = (ttnn.from_torch(torch.randn(*s, generator=gen), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                               device=device) for s in ((1, 1, 4, 64), (8, 4, 32, 64), (8, 4, 32, 64)))
    pages, pos = (ttnn.from_torch(t, dtype=ttnn.int32, layout=ttnn.ROW_MAJOR_LAYOUT, device=device)
                  for t in (torch.arange(8, dtype=torch.int32).reshape(1, 8), torch.tensor([100], dtype=torch.int32)))
    decode = ttnn.transformer.paged_scaled_dot_product_attention_decode
    plain = ttnn.to_torch(decode(q, k, v, pages, None, pos, is_causal=True))
    scheduled = ttnn.to_torch(decode(q, k, v, pages, None, pos, is_causal=True, program_config=eval(config)))
    assert torch.equal(plain, scheduled)
    cpp = translate_to_cpp(lower(PAGED_DECODE, "<test>", "convert-ttnn-to-emitc"))
    assert "::ttnn::operations::transformer::SDPAProgramConfig{.compute_with_storage_grid_size = " \
           "::ttnn::CoreCoord{8, 8}" in cpp
    cpp += ("::std::vector<::ttnn::Tensor> f(::std::vector<::ttnn::Tensor> v) "
            "{ return {decode(v[0], v[1], v[2], v[3], v[4])}; }\n"
            "::std::vector<::ttnn::Tensor> create_inputs_for_f() { return {}; }\n")
    (tmp_path / "decode.cpp").write_text(cpp)
    library, programs = build(tmp_path / "decode.cpp", tmp_path / "build")
    assert library.exists() and programs == ["f"]
