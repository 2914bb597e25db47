"""`--ttnn-resolve-tt-lang-kernels`: a tt_lang_op without an artifact gets the resolver's answer, called with the
op's metadata; a prebaked artifact is kept; a missing or failing resolver is a located error."""

from __future__ import annotations

import sys

import pytest

from ttmlir.asm import parse_text, print_module
from ttmlir.dialects import make_context
from ttmlir.errors import PassFailure
from ttmlir.passes import make_pass

LAYOUT = ("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, "
          "#ttnn.buffer_type<dram>>, <interleaved>>")
TYPE = f"tensor<32x32xf32, {LAYOUT}>"


def _module(artifact: str | None, shard_spec: str = ""):
    extra = "" if artifact is None else f', kernel_artifact = "{artifact}"'
    text = f"""func.func @f(%a: {TYPE}, %out: {TYPE}) -> {TYPE} {{
  %0 = "ttnn.tt_lang_op"(%a, %out) <{{kernel_id = "pkg.k::v1", version_tag = "2", arg_roles = "in,out",
      shard_spec = "{shard_spec}"{extra}}}> : ({TYPE}, {TYPE}) -> {TYPE}
  return %0 : {TYPE}
}}"""
    return parse_text(make_context(), text)[0]


@pytest.fixture
def resolver(tmp_path, monkeypatch):
    """A resolver module on the path that records its calls and answers with a JSON text of its own."""
    (tmp_path / "fake_tt_lang.py").write_text(
        "calls = []\n"
        "def resolve(**kwargs):\n"
        "    calls.append(kwargs)\n"
        "    return ('{\"kernel\": \"' + kwargs['operation_id'] + '\"}').encode()\n"
        "def broken(**kwargs):\n"
        "    raise RuntimeError('no such kernel')\n"
        "def empty(**kwargs):\n"
        "    return b''\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "fake_tt_lang"
    sys.modules.pop("fake_tt_lang", None)


def _resolve(module, **options):
    text = " ".join(f"{k}={v}" for k, v in options.items())
    make_pass("ttnn-resolve-tt-lang-kernels", text).apply(make_context(), module)


def test_an_unresolved_op_gets_the_resolvers_artifact(resolver):
    module = _module(None, shard_spec="rows")
    _resolve(module, **{"python-module": resolver, "python-function": "resolve", "mesh-shape": "2,4"})
    op = next(op for op in module.walk() if op.name == "ttnn.tt_lang_op")
    assert op.properties["kernel_artifact"].data == '{"kernel": "pkg.k::v1"}'
    (call,) = sys.modules[resolver].calls
    assert call["operation_id"] == "pkg.k::v1" and call["version_tag"] == "2" and call["arg_roles"] == "in,out"
    assert call["shard_spec"] == "rows" and call["mesh_shape"] == [2, 4]
    assert call["shapes"] == [[32, 32], [32, 32]] and call["dtypes"] == ["f32", "f32"]
    assert all("ttnn.ttnn_layout" in layout for layout in call["layouts"])


def test_a_prebaked_artifact_is_kept_without_importing_anything():
    module = _module("baked")
    before = print_module(module)
    _resolve(module, **{"python-module": "no_such_module_anywhere"})
    assert print_module(module) == before


@pytest.mark.parametrize("function, options, message", [
    ("resolve", {"python-module": "no_such_module_anywhere"}, "resolver entry point is not importable"),
    ("broken", {}, "tt-lang resolve failed for kernel 'pkg.k::v1': no such kernel"),
    ("empty", {}, "returned an empty artifact"),
    ("resolve", {"mesh-shape": "2,x"}, 'mesh-shape component "x" is not a non-negative integer'),
])
def test_what_cannot_be_resolved_is_an_error(resolver, function, options, message):
    with pytest.raises(PassFailure, match=message):
        _resolve(_module(None), **{"python-module": resolver, "python-function": function, **options})
