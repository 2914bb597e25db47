"""Generated C++ run on the simulator: the TTNN C++ API's types and op functions from the compiler's ttnn API
table (`ttnn-types.inc`, `ttnn-ops.inc` beside `include/ttnn-precompiled.hpp`), a g++ build of a generated `.cpp`
into a shared object, and the bridge that runs each C++ op call on the simulated `ttnn` module.

The build adds, per forward function `f` (a `create_inputs_for_f` exists), C entry points `ttsim_run_f` and
`ttsim_inputs_f` over tensor handles; `ttsim_set_callback` installs the bridge."""

from __future__ import annotations

import ctypes
import hashlib
import re
import subprocess
from pathlib import Path

from ttmlir.conversion import ttnn_api
from ttmlir.runtime import RuntimeFailure

INCLUDE = Path(__file__).resolve().parent / "include"
ENUMS = {"DataType": ttnn_api.DATA_TYPES, "Layout": ttnn_api.LAYOUTS, "BufferType": ttnn_api.BUFFER_TYPES,
         "TensorMemoryLayout": ttnn_api.MEMORY_LAYOUTS,
         "ReduceType": {v: v.upper() for v in ("sum", "mean", "max", "min", "std", "var", "prod", "invalid")},
         "MeshShardType": {v: v.upper() for v in ("identity", "replicate", "maximal", "devices")},
         "MeshShardDirection": {"full_to_shard": "FULL_TO_SHARD", "shard_to_full": "SHARD_TO_FULL"}}
# value types of the API: (C++ members, how the Python constructor takes them)
STRUCTS = {"MemoryConfig": ("TensorMemoryLayout memory_layout; BufferType buffer_type; std::optional<int64_t> "
                            "shard_spec;", ("memory_layout", "buffer_type", "shard_spec")),
           "Shape": ("std::vector<int64_t> dims;", ("dims",)),
           "MeshShape": ("int64_t y; int64_t x;", ("y", "x")),
           "CoreCoord": ("int64_t x; int64_t y;", ("x", "y")),
           "CoreRange": ("CoreCoord start; CoreCoord end;", ("start", "end")),
           "CoreRangeSet": ("std::vector<CoreRange> ranges;", ("ranges",))}
PROGRAM = re.compile(r"^::std::vector<::ttnn::Tensor> (\w+)\(::std::vector<::ttnn::Tensor> \w+\) \{", re.M)


def types_inc() -> str:
    lines = ["// generated from ttmlir.conversion.ttnn_api: the ttnn enums and value types", "namespace ttnn {"]
    members = {name: list(dict.fromkeys(table.values())) for name, table in ENUMS.items()}
    for name, names in members.items():
        lines.append(f"enum class {name} {{ {', '.join(names)} }};")
    for name, (fields, _) in STRUCTS.items():
        lines.append(f"struct {name} {{ {fields} }};")
    configs = _configs()
    lines.append("}  // namespace ttnn")
    for name, fields in configs.items():
        space = _namespace(name).lstrip(":")
        lines.append(f"namespace {space} {{ struct {name} {{ " + " ".join(f"ttsim::Field {f};" for f in fields) + " }; }")
    for key, (name, table) in ttnn_api.FIELD_ENUMS.items():  # enum fields of configs, in their own namespace
        space, names = ttnn_api.CPP_NAMESPACES[name].lstrip(":"), list(table.values())
        quoted = ", ".join(f'"{n}"' for n in names)
        lines.append(f"namespace {space} {{ enum class {name} {{ {', '.join(names)} }}; inline void write("
                     f"std::ostringstream &s, {name} v) {{ static const char *const names[] = {{{quoted}}}; "
                     f"s << \"ttnn.{name}.\" << names[static_cast<int>(v)]; }} }}")
    lines.append("namespace ttsim {")
    for name, fields in configs.items():  # only the fields given: ttnn.X(a=..., b=...)
        parts = " ".join(f'if (!v.{f}.text.empty()) {{ s << sep << "{f}=" << v.{f}.text; sep = ", "; }}' for f in fields)
        lines.append(f"inline void write(std::ostringstream &s, const {_namespace(name)}::{name} &v) {{ const char *sep = \"\"; "
                     f"s << \"ttnn.{name}(\"; {parts} s << \")\"; }}")
    for name, names in members.items():
        quoted = ", ".join(f'"{n}"' for n in names)
        lines.append(f"inline void write(std::ostringstream &s, ::ttnn::{name} v) {{ static const char *const "
                     f"names[] = {{{quoted}}}; s << \"ttnn.{name}.\" << names[static_cast<int>(v)]; }}")
    for name, (_, fields) in STRUCTS.items():
        body = ' s << ", "; '.join(f"write(s, v.{f});" for f in fields)
        lines.append(f"inline void write(std::ostringstream &s, const ::ttnn::{name} &v) {{ s << \"ttnn.{name}(\"; "
                     f"{body} s << \")\"; }}")
    return "\n".join(lines + ["}  // namespace ttsim", ""])


def _namespace(name: str) -> str:
    return ttnn_api.CPP_NAMESPACES.get(name, "::ttnn")


def _configs() -> dict[str, list[str]]:
    """The configuration structs generated code builds, with their fields in declaration order."""
    from ttmlir.dialects.ttnn import STRUCT_ATTRS

    return {ttnn_api.struct_type_name(cls.name): [key for key, _kind, _required in cls.FIELDS] for cls in STRUCT_ATTRS}


def ops_inc() -> str:
    from ttmlir.dialects.ttnn import TTNN_ROWS

    lines = ["// generated from ttmlir.conversion.ttnn_api: one function per TTNN op, forwarded to the simulator"]
    for row in TTNN_ROWS:
        if row.name in ("get_device", "generic") or any(r.endswith("*") for r in row.results) or \
                ttnn_api.outside_ttnn(row.name):  # the simulator has no ttml
            continue
        *spaces, leaf = ttnn_api.cpp_callee_of(row.name).split("::")
        count = len(row.results)
        handle = "GlobalSemaphore" if row.family == "semaphore" else "Tensor"  # what the result's handle is
        result = "void" if count == 0 else handle if count == 1 else \
            "std::tuple<" + ", ".join([handle] * count) + ">"
        forwarded = ttnn_api.CONSTRUCTORS.get(row.name, ttnn_api.callee_of(row.name))
        call = f'ttsim::call<{max(count, 1)}>("{forwarded}", ttsim::arguments(a...))'
        body = f"{call};" if count == 0 else f"return {handle}{{{call}[0]}};" if count == 1 else \
            f"auto r = {call}; return {{" + ", ".join(f"{handle}{{r[{i}]}}" for i in range(count)) + "};"
        namespace = "::".join(["ttnn", *spaces])
        lines.append(f"namespace {namespace} {{ template <typename... A> {result} {leaf}(const A &...a) {{ {body} }} }}")
    lines.append("namespace ttnn { struct DeviceGetter { static MeshDevice *getInstance() { static MeshDevice device; "
                 'device.handle = ttsim::call<1>("get_device", "()")[0]; return &device; } }; }')
    return "\n".join(lines + [""])


def programs(cpp: str) -> list[str]:
    """The generated file's forward functions (those with an input generator), in order."""
    return [name for name in PROGRAM.findall(cpp) if f"create_inputs_for_{name}()" in cpp]


def _shim(cpp_path: Path, names: list[str]) -> str:
    lines = [f'#include "{cpp_path}"',
             'extern "C" void ttsim_set_callback(ttsim::Callback cb) { ttsim::callback() = cb; }',
             "static int64_t ttsim_out(const std::vector<::ttnn::Tensor> &v, int64_t *out, int64_t cap) {",
             "  if ((int64_t)v.size() > cap) return -2;",
             "  for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].handle;",
             "  return (int64_t)v.size();", "}"]
    for name in names:
        lines += [f'extern "C" int64_t ttsim_run_{name}(const int64_t *in, int64_t n, int64_t *out, int64_t cap) {{',
                  "  try {", "    std::vector<::ttnn::Tensor> inputs;",
                  "    for (int64_t i = 0; i < n; ++i) inputs.push_back(::ttnn::Tensor{in[i]});",
                  f"    return ttsim_out({name}(inputs), out, cap);", "  } catch (const std::exception &) { return -1; }",
                  "}",
                  f'extern "C" int64_t ttsim_inputs_{name}(int64_t *out, int64_t cap) {{',
                  f"  try {{ return ttsim_out(create_inputs_for_{name}(), out, cap); }}",
                  "  catch (const std::exception &) { return -1; }", "}"]
    return "\n".join(lines + [""])


def build(cpp_path: Path, build_dir: Path) -> tuple[Path, list[str]]:
    """Compile a generated `.cpp` with g++ into a shared object (cached by content); its path and programs."""
    cpp = cpp_path.read_text()
    names = programs(cpp)
    if not names:
        raise RuntimeFailure(f"{cpp_path}: no program (a function f with a create_inputs_for_f) to run")
    types, ops = types_inc(), ops_inc()
    key = hashlib.sha256("\0".join([cpp, types, ops, (INCLUDE / "ttnn-precompiled.hpp").read_text()]).encode())
    folder = build_dir / key.hexdigest()[:16]
    library = folder / f"{cpp_path.stem.replace('.', '_')}.so"
    if library.exists():
        return library, names
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ttnn-types.inc").write_text(types)
    (folder / "ttnn-ops.inc").write_text(ops)
    shim = folder / "entry.cpp"
    shim.write_text(_shim(cpp_path.resolve(), names))
    command = ["g++", "-std=c++17", "-O0", "-shared", "-fPIC", "-w", f"-I{INCLUDE}", f"-I{folder}", str(shim),
               "-o", str(library) + ".tmp"]
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        raise RuntimeFailure("g++ is not installed: generated C++ cannot be built") from None
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if "error" in line][:3]
        raise RuntimeFailure(f"{cpp_path}: g++ failed: " + (" | ".join(errors) or done.stderr.strip()[-400:]))
    Path(str(library) + ".tmp").rename(library)
    return library, names


CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64),
                            ctypes.c_int64)


class Bridge:
    """The C++ side's tensors by handle; each op call run on the simulated `ttnn` module."""

    def __init__(self, library: Path, device):
        import ttnn

        self.ttnn, self.device = ttnn, device
        self.tensors: dict[int, object] = {}
        self.error: Exception | None = None
        self.lib = ctypes.CDLL(str(library))
        self.callback = CALLBACK(self._call)  # kept alive as long as the library may call it
        self.lib.ttsim_set_callback(self.callback)

    def handle(self, tensor) -> int:
        self.tensors[len(self.tensors) + 1] = tensor
        return len(self.tensors)

    def _call(self, callee: bytes, args: bytes, results, capacity: int) -> int:
        try:
            name = callee.decode()
            if name == "get_device":
                results[0] = 0
                return 1
            scope = {"__builtins__": {}, "ttnn": self.ttnn, "T": self.tensors.__getitem__,
                     "D": lambda _handle: self.device, "float": float}
            values = eval(args.decode(), scope)  # noqa: S307 - text the generated C++ wrote with ttsim::write
            fn = self.ttnn
            for part in name.split("."):
                fn = getattr(fn, part)
            out = fn(*values)
            outs = [] if out is None else list(out) if isinstance(out, tuple) else [out]
            if len(outs) > capacity:
                raise RuntimeFailure(f"ttnn.{name} returned {len(outs)} results, C++ expects {capacity}")
            for i, tensor in enumerate(outs):
                results[i] = self.handle(tensor)
            return len(outs)
        except Exception as exc:  # reported to the runner once C++ unwinds
            self.error = self.error or exc
            return -1

    def run(self, symbol: str, inputs: list) -> list:
        fn = getattr(self.lib, symbol)
        handles = [self.handle(t) for t in inputs]
        out = (ctypes.c_int64 * 64)()
        if symbol.startswith("ttsim_inputs_"):
            count = fn(out, ctypes.c_int64(64))
        else:
            count = fn((ctypes.c_int64 * max(1, len(handles)))(*handles), ctypes.c_int64(len(handles)), out,
                       ctypes.c_int64(64))
        if count < 0:
            error, self.error = self.error, None
            if isinstance(error, RuntimeFailure):
                raise error
            raise RuntimeFailure(f"{symbol}: {type(error).__name__}: {error}" if error else f"{symbol} failed")
        return [self.tensors[out[i]] for i in range(count)]
