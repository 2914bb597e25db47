"""`API.Read/Query/Check/Run/Perf`: ttrt's commands, callable from Python and from the CLI.

Each command is a class whose ARGS table lists its flags (the CLI's argparse parser is built from the
same table); an instance takes `args` (a dict keyed by flag, e.g. `{"--loops": 10, "binary": path}`),
`logger` and `artifacts`, and calling it returns `(result_code, results)`. Every file processed gets a
result entry (`"result": "pass"` or `"error"` with the exception text), written to `--result-file`.
"""

from __future__ import annotations

import json
import math
import os
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ttmlir.cli import UserError, write_atomic
from ttmlir.target.flatbuffer import check_system, simulated_system
from ttrt.common.util import Artifacts, Logger


@dataclass(frozen=True)
class Arg:
    name: str
    default: Any = None
    help: str = ""
    choices: tuple | None = None
    type: type = str


def _flag(name: str, help: str) -> Arg:
    return Arg(name, False, help, type=bool)


COMMON_ARGS = (
    Arg("--log-file", "", "file to write ttrt's log to (also printed to the terminal)"),
    Arg("--artifact-dir", "", "folder for saved artifacts (default: $TT_MLIR_HOME/ttrt-artifacts or ./ttrt-artifacts)"),
    _flag("--clean-artifacts", "remove the artifacts folder before running"),
    _flag("--save-artifacts", "save binaries, tensors and reports into the artifacts folder"),
)
SYSTEM_ARGS = (
    Arg("--arch", "wormhole_b0", "the simulated chip architecture", ("wormhole_b0", "blackhole")),
    Arg("--mesh-shape", "", "the simulated mesh of chips, e.g. 1x2 for an n300 (default: what the binary needs, "
                            "or 1x1)"),
)
BINARY_ARG = Arg("binary", None, "a flatbuffer file or a directory of them")
VERSION_ARG = _flag("--ignore-version", "do not check the binary's version against ttrt's")
PROGRAM_ARGS = (
    Arg("--program-index", "all", "which program to run: an index or 'all'"),
    Arg("--loops", 1, "how many times to run each program", type=int),
    Arg("--init", "randn", "how to initialise inputs", ("randn", "arange", "zeros", "ones", "rand")),
    Arg("--seed", 0, "random seed for inputs", type=int),
)


def pretty_json(value) -> str:
    """Indented JSON with lists of scalars on one line, e.g. `"shape": [1, 32, 64]`."""
    text = json.dumps(value, indent=2)
    return re.sub(r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)


class API:
    """The registry of ttrt commands; `initialize_apis()` registers them as `API.Read`, `API.Run`, ..."""

    registered_apis: ClassVar[dict[str, type]] = {}

    @staticmethod
    def initialize_apis() -> None:
        for cls in (Read, Query, Check, Run, Perf, EmitPy, EmitC):
            API.registered_apis[cls.name] = cls
            setattr(API, cls.__name__, cls)


class Command(ABC):
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    ARGS: ClassVar[tuple[Arg, ...]] = ()

    def __init__(self, args: dict | None = None, logger: Logger | None = None, artifacts: Artifacts | None = None):
        given = dict(args or {})
        self.args = {a.name: given.get(a.name, a.default) for a in self.all_args()}
        from ttmlir.runtime import distributed

        if not distributed.is_root():  # under tt-run one rank (chip 0's) reports and writes files; the rest compute
            os.environ["TTRT_LOGGER_LEVEL"] = "WARNING"
            self.args.update({name: False for name in ("--save-artifacts", "--clean-artifacts") if name in self.args})
            self.args["--result-file"] = ""
        self.logger = logger or Logger(self.args.get("--log-file") or "")
        unknown = sorted(set(given) - set(self.args))
        if unknown:  # as upstream's API: arguments a command does not take are ignored
            self.logger.warning(f"ttrt {self.name}: ignoring argument(s) it does not take: {', '.join(unknown)}")
        self.artifacts = artifacts or Artifacts(self.logger, artifacts_folder_path=self.args.get("--artifact-dir") or "")
        self.results: list[dict] = []

    @classmethod
    def all_args(cls) -> tuple[Arg, ...]:
        return (*cls.ARGS, *COMMON_ARGS, Arg("--result-file", f"{cls.name}_results.json",
                                            "JSON file to write the per-file results to"))

    def __call__(self) -> tuple[int, list[dict]]:
        if self.args["--clean-artifacts"]:
            self.artifacts.clean_artifacts()
        if self.args["--save-artifacts"]:
            self.artifacts.create_artifacts()
        interrupted = False
        try:
            self.execute()
        except KeyboardInterrupt:  # Ctrl-C: what ran so far is still reported
            interrupted = True
        finally:
            self.artifacts.release()
        result_file = self.args["--result-file"]
        if result_file:
            write_atomic(result_file, json.dumps(self.results, indent=2) + "\n")
        if interrupted:
            raise KeyboardInterrupt(f"the results so far are in {result_file}" if result_file else "")
        failed = any(r["result"] != "pass" for r in self.results)
        return (1 if failed else 0), self.results

    @abstractmethod
    def execute(self) -> None: ...

    def files(self, suffixes: tuple[str, ...]) -> list[Path]:
        path = Path(self.args["binary"] or "")
        if not self.args["binary"]:
            raise UserError(f"ttrt {self.name}: no binary given")
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in suffixes)
            if not found:
                self.logger.warning(f"no {'/'.join(suffixes)} files under {path}")
            return found
        return [path]

    def record(self, path: Path | str, error: Exception | None = None, result: str = "error", **extra) -> dict:
        entry = {"file_path": str(path), "result": "pass" if error is None else result,
                 "exception": "" if error is None else str(error), "log_file": self.args["--log-file"],
                 "artifacts": self.artifacts.get_artifacts_folder_path(), **extra}
        if error is not None:
            self.logger.error(f"ERROR: {error}")
        self.results.append(entry)
        return entry

    def for_each(self, suffixes: tuple[str, ...], work) -> None:
        """Run `work(path)` on every file; one file's failure is recorded and the rest still run."""
        from ttmlir.runtime import RuntimeFailure
        from ttmlir.target.flatbuffer import BinaryError

        files = self.files(suffixes)
        if len(files) > 1:
            from rich.progress import track

            files = track(files, description=f"ttrt {self.name}", transient=True)
        for path in files:
            try:
                extra = work(path) or {}
            except (BinaryError, RuntimeFailure, ValueError, OSError) as exc:
                self.record(path, exc, **self.error_extra())
            except KeyboardInterrupt:
                self.record(path, KeyboardInterrupt("interrupted"), result="interrupted")
                raise
            except Exception as exc:  # a bug met on one binary is recorded; the others still run
                self.record(path, RuntimeError(f"internal error: {type(exc).__name__}: {exc}"), **self.error_extra())
            else:
                self.record(path, **extra)
            finally:
                self.artifacts.release()

    def error_extra(self) -> dict:
        return {}


class Read(Command):
    name = "read"
    summary = "read sections of a binary file"
    SECTIONS = ("all", "version", "system_desc", "mlir", "inputs", "outputs", "op_stats", "mesh_shape", "kernels")
    ARGS = (BINARY_ARG, Arg("--section", "all", "the section to read", SECTIONS))

    def execute(self) -> None:
        self.for_each((".ttnn", ".ttm", ".ttsys"), self.read)

    def read(self, path: Path) -> dict:
        from ttmlir.target import flatbuffer as fbu

        kind, root = fbu.load(path)
        section = self.args["--section"]
        available = self.sections(kind, root)
        if section != "all" and section not in available:
            raise UserError(f"{path}: a .{kind} file has no '{section}' section "
                             f"(it has {', '.join(available)})")
        shown = available if section == "all" else {section: available[section]}
        for name, value in shown.items():
            self.logger.info(pretty_json({name: value}))
        if self.args["--save-artifacts"]:
            folder = self.artifacts.save_binary(str(path))
            self.artifacts.save_json(folder, "read.json", shown)
        return {"section": section}

    @staticmethod
    def sections(kind: str, root) -> dict:
        from ttmlir.target import flatbuffer as fbu

        out = {"version": {"version": fbu.version_str(root.version), "git_hash": root.ttmlirGitHash},
               "system_desc": fbu.to_json(root.systemDesc)}
        if kind == "ttsys":
            return out
        if kind == "ttm":
            return {**out, **Read.metal_sections(root)}
        programs = root.programs or []
        out["mlir"] = {stage.name: stage.source for stage in root.mlirStages or []}
        out["inputs"] = [{"program": p.name, "inputs": fbu.to_json(p.inputs or [])} for p in programs]
        out["outputs"] = [{"program": p.name, "outputs": fbu.to_json(p.outputs or [])} for p in programs]
        stats = []
        for p in programs:
            counts: dict[str, int] = {}
            for op in p.operations or []:
                name = fbu.op_name(op)
                key = fbu.qualified_op_name(name)
                counts[key] = counts.get(key, 0) + 1
            stats.append({"program": p.name, "num_ops": len(p.operations or []), "ops": counts})
        out["op_stats"] = stats
        mesh = root.meshShape
        out["mesh_shape"] = [mesh.y, mesh.x] if mesh is not None else [1, 1]
        return out


    @staticmethod
    def metal_sections(root) -> dict:
        """A `.ttm`'s programs: buffers in and out, commands by kind, the mesh each runs on, and every launched kernel
        with its C++."""
        from ttmlir.runtime.metal.mesh import mesh_of
        from ttmlir.target import flatbuffer as fbu

        programs = fbu.as_list(root.programs)
        queues = {p.name: fbu.ttm_commands(p) for p in programs}
        stats, kernels = [], []
        for p in programs:
            counts: dict[str, int] = {}
            for command in queues[p.name]:
                name = "ttmetal." + fbu.snake(type(command.type).__name__[:-len("CommandT")])
                counts[name] = counts.get(name, 0) + 1
                for k in fbu.as_list(getattr(command.type, "kernels", None)):
                    kernels.append({"program": p.name, "symbol": k.symbol,
                                    "thread": "compute" if hasattr(k.type, "mathFidelity") else "noc",
                                    "cores": {"offset": [k.coreOffset.y, k.coreOffset.x],
                                              "size": [k.coreSize.y, k.coreSize.x]},
                                    "source": k.source})
            stats.append({"program": p.name, "num_commands": len(queues[p.name]), "commands": counts})
        return {"inputs": [{"program": p.name, "inputs": fbu.to_json(p.inputs or [])} for p in programs],
                "outputs": [{"program": p.name, "outputs": fbu.to_json(p.outputs or [])} for p in programs],
                "op_stats": stats,
                "mesh_shape": [{"program": p.name, "mesh_shape": list(mesh_of(p))} for p in programs],
                "kernels": kernels}


class Query(Command):
    name = "query"
    summary = "describe the simulated system (optionally save system_desc.ttsys)"
    ARGS = (_flag("--quiet", "do not print the system descriptor"), *SYSTEM_ARGS)

    def execute(self) -> None:
        from ttmlir.target import flatbuffer as fbu

        try:
            root = fbu.system_desc_root(simulated_system(self.args))
        except ValueError as exc:
            self.record("system_desc", exc)
            return
        if not self.args["--quiet"]:
            self.logger.info(pretty_json({"system_desc": fbu.to_json(root.systemDesc)}))
        extra = {}
        if self.args["--save-artifacts"]:
            path = Path(self.artifacts.get_artifacts_folder_path()) / "system_desc.ttsys"
            write_atomic(str(path), fbu.serialize(root, "ttsys"))
            self.logger.info(f"system desc saved to {path}")
            extra["system_desc_path"] = str(path)
        self.record("system_desc", **extra)


class Check(Command):
    name = "check"
    summary = "check binaries against a system descriptor (the simulated system by default)"
    ARGS = (BINARY_ARG, Arg("--system-desc", "", "a .ttsys file, or a directory of them"), VERSION_ARG,
            *SYSTEM_ARGS)

    def execute(self) -> None:
        from ttmlir.target import flatbuffer as fbu

        descs = None  # the simulated system: as `ttrt run` builds it, sized for each binary's mesh
        if self.args["--system-desc"]:
            path = Path(self.args["--system-desc"])
            paths = sorted(path.rglob("*.ttsys")) if path.is_dir() else [path]
            try:
                descs = [(str(p), fbu.system_desc_dict(fbu.load(p, expect="ttsys")[1].systemDesc)) for p in paths]
            except fbu.BinaryError as exc:
                self.record(path, exc)
                return

        def check(path: Path) -> dict:
            _, root = fbu.load(path, expect="ttnn")
            if not self.args["--ignore-version"]:
                fbu.check_version(root, str(path))
            mesh = (root.meshShape.y, root.meshShape.x) if root.meshShape is not None else (1, 1)
            for name, desc in descs or [("simulated system", simulated_system(self.args, mesh))]:
                check_system(root.systemDesc, desc, str(path), mesh)
                self.logger.info(f"{path}: compatible with {name}")
            return {}

        self.for_each((".ttnn",), check)


EXACT_NUMERICS_ARG = _flag("--exact-numerics", "compute in f32 and store with round-to-nearest-even (for debugging) "
                                               "instead of the hardware's math fidelity, packer rounding and SFPU "
                                               "approximations")
NO_VALUES_ARG = _flag("--no-values", "compute no values, only the memory report and modelled time (for graphs "
                                     "larger than this machine's memory); golden and identity checks are skipped")


class Run(Command):
    name = "run"
    summary = "run binaries on the simulated device"
    ARGS = (BINARY_ARG, *PROGRAM_ARGS, VERSION_ARG, *SYSTEM_ARGS,
            _flag("--identity", "check that each output equals the matching input"),
            Arg("--rtol", 1e-05, "relative tolerance of --identity and golden allclose", type=float),
            Arg("--atol", 1e-08, "absolute tolerance of --identity and golden allclose", type=float),
            Arg("--pcc", 0.99, "the PCC a golden comparison must reach", type=float),
            _flag("--disable-golden", "do not compare op outputs with the binary's golden tensors"),
            _flag("--save-golden-tensors", "save golden and device tensors of each compared op"),
            _flag("--print-input-output-tensors", "print each program's inputs and outputs"),
            _flag("--memory", "record a memory report after every op"),
            _flag("--check-memory-leak", "fail when device memory is still allocated after a program"),
            _flag("--debugger", "stop in pdb after every op"),
            _flag("--dump-kernels", "write each .ttm kernel's C++ to --kernel-source-dir as it is run"),
            _flag("--load-kernels", "run each .ttm kernel from its C++ file in --kernel-source-dir instead of the "
                                    "binary's (edit what --dump-kernels wrote, then run again)"),
            Arg("--kernel-source-dir", "", "where kernels are dumped and loaded: <dir>/<program>/<kernel>.cpp "
                                           "(default: the artifacts folder's kernels/)"),
            NO_VALUES_ARG, EXACT_NUMERICS_ARG)

    def execute(self) -> None:
        self.golden_reports: dict = {}
        self.for_each((".ttnn", ".ttm"), self.run_binary)

    def error_extra(self) -> dict:
        return {"program_index": self.args["--program-index"]}

    # what a `.ttm` run does not do yet: each is refused when asked for, not ignored
    METAL_UNSUPPORTED = ("--identity", "--memory", "--check-memory-leak", "--debugger", "--no-values",
                         "--print-input-output-tensors", "--save-golden-tensors")
    KERNEL_FLAGS = ("--dump-kernels", "--load-kernels")

    def run_binary(self, path: Path) -> dict:
        from ttmlir.runtime import session

        if path.suffix == ".ttm":
            return self.run_metal(path)
        if asked := [flag for flag in self.KERNEL_FLAGS if self.args.get(flag)]:
            raise UserError(f"{path}: {', '.join(asked)} apply to .ttm binaries (a .ttnn runs no kernels of its own)")
        run = session.BinaryRun(path, self.args, self.logger, self.artifacts, self.progress_label())
        program_results = run.execute(perf=self.name == "perf")
        self.after(run)
        return {"program_index": self.args["--program-index"], "program_results": program_results}

    def run_metal(self, path: Path) -> dict:
        """A `.ttm`'s programs on the simulated grid, inputs drawn as for `.ttnn`; each launch's modelled cycles."""
        import torch

        from ttmlir.runtime.metal.mesh import mesh_of
        from ttmlir.runtime.metal.program import MeshProgramRunner, input_shapes
        from ttmlir.runtime.metal.grid import Grid
        from ttmlir.target import flatbuffer as fbu

        asked = [flag for flag in self.METAL_UNSUPPORTED if self.args.get(flag)]
        if asked:
            raise UserError(f"{path}: {', '.join(asked)} is not supported for .ttm binaries yet")
        _, root = fbu.load(path, expect="ttm")
        if not self.args["--ignore-version"]:
            fbu.check_version(root, str(path))
        programs = fbu.as_list(root.programs)
        chosen = self.args["--program-index"]
        indices = range(len(programs)) if chosen == "all" else [int(chosen)]
        results, perf_rows = [], []
        timeline, spans = {"now_ns": 0.0, "rows": 0}, {}  # the modelled device clock and per-core kernel spans
        generator = torch.Generator().manual_seed(self.args["--seed"])
        draw = {"randn": lambda s: torch.randn(s, generator=generator), "rand": lambda s: torch.rand(s, generator=generator),
                "zeros": torch.zeros, "ones": torch.ones,
                "arange": lambda s: torch.arange(math.prod(s), dtype=torch.float32).reshape(s)}[self.args["--init"]]
        for index in indices:
            if not 0 <= index < len(programs):
                raise UserError(f"{path}: program index {index} out of range ({len(programs)} program(s))")
            program = programs[index]
            if self.args.get("--mesh-shape"):  # the simulated system's chips must hold the program's mesh
                have, need = fbu.parse_mesh_shape(self.args["--mesh-shape"]), mesh_of(program)
                if need[0] > have[0] or need[1] > have[1]:
                    raise UserError(f"{path}: system desc mismatch: program {index} ('{program.name}') needs a "
                                    f"{need[0]}x{need[1]} mesh, the system is {have[0]}x{have[1]}")
            self.kernel_sources(program)
            goldens = self.metal_goldens(program)
            for loop in range(self.args["--loops"]):
                runner = MeshProgramRunner(lambda: Grid(self.args["--arch"], exact=self.args["--exact-numerics"]),
                                           program)
                inputs = [goldens[f"input_{i}"] if f"input_{i}" in goldens else draw(shape)
                          for i, shape in enumerate(input_shapes(program))]
                outputs = runner.run(inputs)
                golden_report = self.check_metal_goldens(goldens, outputs, f"program {index} ('{program.name}')")
                launches = [{"cycles": s.cycles, "cores": s.cores, "noc_bytes": s.noc_bytes,
                             "tiles_computed": s.tiles_computed} for s in runner.stats]
                self.logger.info(f"{path.name} program {index} ('{program.name}') loop {loop}: "
                                 + "; ".join([f"launch {i}: {l['cycles']:,} cycles on {l['cores']} core(s)"
                                              for i, l in enumerate(launches)] +
                                             [f"{c['kind']} {i}: {c['fabric_ns']:,.0f} ns on the fabric"
                                              for i, c in enumerate(runner.collectives)]))
                if self.args["--save-artifacts"]:
                    folder = self.artifacts.binary_folder(str(path)) / f"program_{index}"
                    for kind, tensors in (("input", inputs), ("output", outputs)):
                        for i, tensor in enumerate(tensors):
                            self.artifacts.save_torch_tensor(folder, f"{kind}_{i}.pt", tensor)
                results.append({"program_index": index, "loop": loop, "launches": launches, "golden": golden_report,
                                "collectives": runner.collectives})
                perf_rows += self.metal_perf_rows(runner, program, index, timeline, spans)
        if self.name == "perf":
            from ttmlir.runtime.session import write_perf_csv, write_trace

            folder = self.artifacts.binary_folder(str(path))
            report = write_perf_csv(folder, perf_rows, self.args["--host-only"])
            if self.args["--trace"] and not self.args["--host-only"]:
                write_trace(folder, perf_rows, ["simulated"] * len(perf_rows), self.logger, spans)
            device = sum(r.get("DEVICE KERNEL DURATION [ns]", 0) for r in perf_rows)
            self.logger.info(f"{path.name}: {len(perf_rows)} program launches, modelled device time "
                             f"{device / 1000:.1f} us on {self.args['--arch']}; report: {report}")
        return {"program_index": chosen, "program_results": results}

    @staticmethod
    def metal_goldens(program) -> dict:
        """A .ttm program's golden tensors (`input_N`, `output_N`) as torch tensors."""
        from ttmlir.runtime.executor import golden_to_torch

        info = program.debugInfo.goldenInfo if program.debugInfo is not None else None
        return {kv.key: golden_to_torch(kv.value).float() for kv in (info.goldenMap or [] if info else [])}

    def check_metal_goldens(self, goldens: dict, outputs: list, where: str) -> dict:
        """Each output against its golden (unless --disable-golden); a miss fails the run naming the output."""
        from ttmlir.runtime import RuntimeFailure
        from ttmlir.runtime.golden import compare

        if self.args.get("--disable-golden"):
            return {}
        report = {f"output_{i}": compare(goldens[f"output_{i}"], out, self.args["--pcc"], self.args["--atol"],
                                          self.args["--rtol"])
                  for i, out in enumerate(outputs) if f"output_{i}" in goldens}
        for key, entry in report.items():
            self.logger.info(f"{where} {key}: PCC {entry['actual_pcc']:.6f} (golden)")
            if entry["actual_pcc"] < entry["expected_pcc"]:
                raise RuntimeFailure(f"{where}: golden check failed for {key}: PCC {entry['actual_pcc']:.6f} < "
                                     f"{entry['expected_pcc']}")
        return report

    def metal_perf_rows(self, runner, program, index: int, timeline: dict, spans: dict) -> list[dict]:
        """ops_perf_results.csv rows, one per program launch of a .ttm run: the simulator's cycles at the chip's
        clock, laid end to end after each launch's host dispatch (`timeline` carries the clock and the rows so far
        across programs); per RISC the longest kernel of that kind; per core its kernels' spans (into `spans`,
        keyed as `perf_report.trace_events` takes them); the host time the simulation took."""
        import hashlib

        from ttmlir import hardware
        from ttmlir.runtime import perf
        from ttmlir.target import flatbuffer as fbu

        arch = self.args["--arch"]
        clock, gap = hardware.CHIPS[arch].clock_ghz, perf.CALIBRATION[arch].dispatch_ns
        rows = []
        kernels = {k.symbol: k.source or "" for command in fbu.ttm_commands(program)
                   for k in fbu.as_list(getattr(command.type, "kernels", None))}
        for count, (launch, stats) in enumerate(zip(runner.launches, runner.stats)):
            start = timeline["now_ns"] + gap
            timeline["now_ns"] = end = start + stats.cycles / clock
            per_core: dict = {}
            for core, _, _, cycles in stats.kernels:
                per_core[core] = max(per_core.get(core, 0), cycles / clock)
            by_risc = {p: max([c / clock for _, _, q, c in stats.kernels if q == p], default=0)
                       for p in ("brisc", "ncrisc", "compute")}
            names = {kind: sorted({n for _, n, p, _ in stats.kernels if (p == "compute") == (kind == "compute")})
                     for kind in ("compute", "data movement")}
            digest = {kind: ";".join(hashlib.sha1(kernels.get(n, "").encode()).hexdigest()[:16] for n in ns)
                      for kind, ns in names.items()}
            kernel_ns = round(stats.cycles / clock)
            rows.append({"OP CODE": "ttmetal.enqueue_program", "OP TYPE": "tt_dnn_device", "GLOBAL CALL COUNT": count,
                         "DEVICE ID": 0, "ATTRIBUTES": "", "MATH FIDELITY": launch["math_fidelity"],
                         "CORE COUNT": stats.cores, "PARALLELIZATION STRATEGY": "MULTI_CORE" if stats.cores > 1
                         else "SINGLE_CORE", "HOST START TS": launch["host_start"], "HOST END TS": launch["host_end"],
                         "HOST DURATION [ns]": launch["host_end"] - launch["host_start"],
                         "DEVICE FW START CYCLE": round(start * clock), "DEVICE FW END CYCLE": round(end * clock),
                         "OP TO OP LATENCY [ns]": round(gap), "OP TO OP LATENCY BR/NRISC START [ns]": round(gap),
                         "DEVICE FW DURATION [ns]": kernel_ns, "DEVICE KERNEL DURATION [ns]": kernel_ns,
                         "DEVICE KERNEL DURATION DM START [ns]": kernel_ns,
                         "DEVICE KERNEL DURATION PER CORE MIN [ns]": round(min(per_core.values(), default=0)),
                         "DEVICE KERNEL DURATION PER CORE MAX [ns]": round(max(per_core.values(), default=0)),
                         "DEVICE KERNEL DURATION PER CORE AVG [ns]":
                             round(sum(per_core.values()) / max(len(per_core), 1)),
                         "DEVICE KERNEL FIRST TO LAST START [ns]": 0,
                         "DEVICE BRISC KERNEL DURATION [ns]": round(by_risc["brisc"]),
                         "DEVICE NCRISC KERNEL DURATION [ns]": round(by_risc["ncrisc"]),
                         **{f"DEVICE TRISC{i} KERNEL DURATION [ns]": round(by_risc["compute"]) for i in range(3)},
                         "DISPATCH TOTAL CQ CMD OP TIME [ns]": round(gap),
                         "COMPUTE KERNEL SOURCE": ";".join(names["compute"]), "COMPUTE KERNEL HASH": digest["compute"],
                         "DATA MOVEMENT KERNEL SOURCE": ";".join(names["data movement"]),
                         "DATA MOVEMENT KERNEL HASH": digest["data movement"], "LOC": launch["loc"],
                         "CONST_EVAL_OP": "false", "PROGRAM_METADATA": f"program {index} ('{program.name}')"})
            spans[(0, timeline["rows"])] = [(f"core {y},{x} {processor}", name, 0.0, cycles / clock)
                                             for (y, x), name, processor, cycles in stats.kernels]
            timeline["rows"] += 1
        return rows

    def kernel_sources(self, program) -> None:
        """--dump-kernels writes each kernel's C++ to <dir>/<program>/<kernel>.cpp; --load-kernels runs that file's
        text instead of the binary's."""
        from ttmlir.target import flatbuffer as fbu

        if not (self.args.get("--dump-kernels") or self.args.get("--load-kernels")):
            return
        folder = Path(self.args["--kernel-source-dir"] or Path(self.artifacts.get_artifacts_folder_path()) / "kernels")
        for command in fbu.ttm_commands(program):
            for kernel in fbu.as_list(getattr(command.type, "kernels", None)):
                file = folder / program.name / f"{kernel.symbol}.cpp"
                if self.args["--load-kernels"]:
                    try:
                        kernel.source = file.read_text()
                    except OSError as error:
                        raise UserError(f"--load-kernels: cannot read {file} ({error.strerror}); run with "
                                        "--dump-kernels first") from None
                    self.logger.info(f"kernel {kernel.symbol} loaded from {file}")
                if self.args["--dump-kernels"]:
                    file.parent.mkdir(parents=True, exist_ok=True)
                    write_atomic(str(file), kernel.source)
                    self.logger.info(f"kernel {kernel.symbol} written to {file}")

    def progress_label(self) -> str:
        return "running"

    def after(self, run) -> None:
        pass


class Perf(Run):
    name = "perf"
    summary = "run binaries with the perf model and write ops_perf_results.csv"
    ARGS = (BINARY_ARG, *PROGRAM_ARGS, VERSION_ARG, *SYSTEM_ARGS,
            _flag("--host-only", "collect host timings only (no device estimates)"),
            _flag("--trace", "also write perf/trace.json (Chrome/Perfetto trace of the modelled device timeline) "
                             "and perf/summary.txt (top ops, what bounds them)"), NO_VALUES_ARG, EXACT_NUMERICS_ARG)

    def after(self, run) -> None:
        run.write_perf_report(host_only=self.args["--host-only"], trace=self.args["--trace"])

    def progress_label(self) -> str:
        return "profiling"




class EmitPy(Command):
    name = "emitpy"
    summary = "run generated Python (--mlir-to-python) on the simulated ttnn module"
    ARGS = (Arg("binary", None, "a generated .py file or a directory of them"),
            Arg("--program-index", "all", "which program to run: an index or 'all'"),
            Arg("--loops", 1, "how many times to run each program", type=int),
            Arg("--flatbuffer", "", "a .ttnn (or a directory of them, matched by name) whose `ttrt run` outputs the "
                                    "generated code must reproduce, on the same inputs"),
            Arg("--init", "randn", "how --flatbuffer's inputs are initialised", ("randn", "arange", "zeros", "ones",
                                                                                   "rand")),
            Arg("--seed", 0, "random seed for --flatbuffer's inputs", type=int),
            Arg("--arch", "wormhole_b0", "the simulated chip architecture", ("wormhole_b0", "blackhole")),
            _flag("--print-input-output-tensors", "print each program's inputs and outputs"),
            _flag("--memory", "record a memory report after every op"))

    def execute(self) -> None:
        self.for_each((".py",), self.run_file)

    def error_extra(self) -> dict:
        return {"program_index": self.args["--program-index"]}

    def run_file(self, path: Path) -> dict:
        from ttrt.common.emitpy import EmitPyRun

        if self.args["--save-artifacts"]:
            self.artifacts.save_binary(str(path))
        results = EmitPyRun(path, self.args, self.logger, self.artifacts).execute()
        return {"program_index": self.args["--program-index"], "program_results": results}


class EmitC(EmitPy):
    name = "emitc"
    summary = "build generated C++ (--mlir-to-cpp) with g++ and run it on the simulated ttnn module"
    ARGS = (Arg("binary", None, "a generated .cpp file or a directory of them"), *EmitPy.ARGS[1:])

    def execute(self) -> None:
        self.for_each((".cpp", ".so"), self.run_file)

    def run_file(self, path: Path) -> dict:
        from ttrt.common.emitpy import EmitCRun

        if self.args["--save-artifacts"]:
            self.artifacts.save_binary(str(path))
        results = EmitCRun(path, self.args, self.logger, self.artifacts).execute()
        return {"program_index": self.args["--program-index"], "program_results": results}


API.initialize_apis()
