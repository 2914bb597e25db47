// The TTNN C++ API as generated code (`ttmlir-translate --mlir-to-cpp`) calls it, forwarded to the ttmlir
// simulator: every op call is written out as its arguments' Python spelling and handed, with the op's name, to a
// callback the runner (`ttrt emitc`) installs; the simulated `ttnn` module runs it with the runtime's kernels and
// returns handles of the resulting tensors. Types, enums and op functions come from the compiler's ttnn API table
// (`ttnn-types.inc`, `ttnn-ops.inc`, written next to the build by `ttrt emitc`).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace ttnn {
struct Tensor {
  int64_t handle = -1;
};
struct MeshDevice {
  int64_t handle = -1;
};
struct GlobalSemaphore {
  int64_t handle = -1;
};
}  // namespace ttnn

namespace ttsim {
// (callee, arguments as a Python tuple, result handles, capacity) -> number of results, or -1 on an error
using Callback = int64_t (*)(const char *, const char *, int64_t *, int64_t);

inline Callback &callback() {
  static Callback fn = nullptr;
  return fn;
}

inline void write(std::ostringstream &s, const ::ttnn::Tensor &t) { s << "T(" << t.handle << ")"; }
inline void write(std::ostringstream &s, const ::ttnn::MeshDevice *d) { s << "D(" << d->handle << ")"; }
inline void write(std::ostringstream &s, const ::ttnn::GlobalSemaphore &g) { s << "T(" << g.handle << ")"; }
inline void write(std::ostringstream &s, std::nullopt_t) { s << "None"; }
inline void write(std::ostringstream &s, bool b) { s << (b ? "True" : "False"); }
inline void write(std::ostringstream &s, const char *text) {
  s << '"';
  for (const char *c = text; *c; ++c) {
    if (*c == '"' || *c == '\\') s << '\\';
    s << *c;
  }
  s << '"';
}
template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
inline void write(std::ostringstream &s, T v) { s << static_cast<long long>(v); }
template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
inline void write(std::ostringstream &s, T v) {
  if (std::isnan(v)) s << "float('nan')";
  else if (std::isinf(v)) s << (v > 0 ? "float('inf')" : "float('-inf')");
  else s << std::setprecision(9) << static_cast<double>(v);
}
template <typename T> void write(std::ostringstream &s, const std::vector<T> &values);
template <typename T> void write(std::ostringstream &s, const std::optional<T> &value);

// Names a value type's namespace for argument-dependent lookup: a Field of a struct type (a core coordinate) is
// written by the overload the generated types define after this point.
template <typename T> struct Tag {};

// A field of a configuration struct (compute kernel, conv, matmul program config): its value's Python spelling.
struct Field {
  std::string text;
  Field() = default;
  Field(std::nullopt_t) {}
  Field(const char *v) { std::ostringstream s; write(s, v); text = s.str(); }
  Field(bool v) : text(v ? "True" : "False") {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Field(T v) { std::ostringstream s; write(s, v); text = s.str(); }
  // an enum field (math fidelity): written by the overload beside its type, found by argument-dependent lookup
  template <typename T, std::enable_if_t<std::is_enum_v<T>, int> = 0>
  Field(T v) { std::ostringstream s; write(s, v); text = s.str(); }
  template <typename T, std::enable_if_t<std::is_class_v<T>, int> = 0>
  Field(const T &v) { std::ostringstream s; write(s, v, Tag<T>{}); text = s.str(); }
};

}  // namespace ttsim

#include "ttnn-types.inc"

namespace ttsim {
template <typename T> void write(std::ostringstream &s, const T &v, Tag<T>) { write(s, v); }
template <typename T> void write(std::ostringstream &s, const std::vector<T> &values) {
  s << "[";
  for (const auto &v : values) {
    write(s, v);
    s << ", ";
  }
  s << "]";
}
template <typename T> void write(std::ostringstream &s, const std::optional<T> &value) {
  if (value) write(s, *value);
  else s << "None";
}

template <typename... A> std::string arguments(const A &...args) {
  std::ostringstream s;
  s << "(";
  ((write(s, args), s << ", "), ...);
  s << ")";
  return s.str();
}

template <size_t N> std::array<int64_t, N> call(const char *callee, const std::string &args) {
  std::array<int64_t, N> results{};
  if (callback() == nullptr) throw std::runtime_error("ttsim: no simulator callback installed");
  if (callback()(callee, args.c_str(), results.data(), static_cast<int64_t>(N)) < 0)
    throw std::runtime_error(std::string("ttsim: ") + callee + " failed");
  return results;
}
}  // namespace ttsim

template <typename... T> std::vector<::ttnn::Tensor> util_create_vec(const T &...tensors) { return {tensors...}; }

namespace ttnn {
// A const-eval function's results, computed on the first call into `outputs` (a static cache of the generated
// code) and served from it afterwards.
inline void constEvalFuncWrapper(std::function<std::vector<Tensor>(std::vector<Tensor>)> constEvalFunc,
                                 const std::vector<Tensor> &inputs, std::vector<Tensor> *outputs) {
  if (outputs->empty()) *outputs = constEvalFunc(inputs);
}
inline void constEvalFuncWrapperZeroArg(std::function<std::vector<Tensor>()> constEvalFunc,
                                        std::vector<Tensor> *outputs) {
  if (outputs->empty()) *outputs = constEvalFunc();
}
}  // namespace ttnn

#include "ttnn-ops.inc"
