"""lit configuration: tests under test/lit, RUN lines written as upstream tt-mlir writes them."""

import os
import shutil

import lit.formats

config.name = "ttmlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]

bin_dir = os.path.dirname(shutil.which("ttmlir-opt") or "")
config.environment["PATH"] = os.pathsep.join(p for p in (bin_dir, os.environ.get("PATH", "")) if p)
# RUN lines call `FileCheck`: ours (the filecheck package with LLVM's CHECK-NOT range, tools/ttmlir_filecheck).
config.substitutions.append(("FileCheck", shutil.which("FileCheck") or "FileCheck"))
config.substitutions.append(("%system_desc_path%", ""))
# A checkout beside the installed one (a git worktree) runs its own code through PYTHONPATH.
if "PYTHONPATH" in os.environ:
    config.environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
config.available_features.add("stablehlo")  # the StableHLO front door (ttmlir.dialects.stablehlo)
# The op model (ttmlir/runtime/op_model.py) judges layouts and times ops, as upstream's built with its op model.
config.available_features.add("opmodel")
