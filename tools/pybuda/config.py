"""The compiler configuration PyBuda scripts set: `_get_global_compiler_config()`, `set_configuration_options`,
`configure_mixed_precision`, and the data formats and math fidelities they name."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, fields
from enum import Enum

from pybuda._C import DataFormat, MathFidelity
from pybuda._C.backend_api import BackendDevice
from pybuda._C.placer import DRAMPlacementAlgorithm
from pybuda.errors import PyBudaError


# accumulate_df -> the compute configs' fp32_dest_acc_en (the dst register accumulates in f32 or bf16)
ACCUMULATE = {None: "true", DataFormat.Float32: "true", DataFormat.Float16_b: "false"}

# the product labels of set_configuration_options(device_config=...) that one simulated chip stands for
DEVICE_CONFIGS = {"wh_n150": BackendDevice.Wormhole_B0, "bh_p150": BackendDevice.Blackhole}

# balancer_policy -> the TTNN pipeline's optimization level. tt-buda's balancer chooses each op's grid and blocking;
# here the TTNN optimizer chooses each op's memory layout, sharding and core grid. "default" is the pipeline's own
# default (interleaved DRAM, no search); the searching policies run the optimizer's layout search (level 2).
BALANCER_POLICIES = {"default": 0, "Ribbon": 2, "NLP": 2, "CNN": 2, "MaximizeTMinimizeGrid": 2, "MinimizeGrid": 2}


class CompileDepth(Enum):
    """How far tt-buda's compiler goes; this build compiles whole modules, so only FULL is accepted."""
    INIT_COMPILE = 0
    GENERATE_INITIAL_GRAPH = 1
    POST_INITIAL_GRAPH_PASS = 2
    CONSTEVAL_GRAPH = 3
    POST_PATTERN_MATCHER = 4
    OPTIMIZED_GRAPH = 5
    AUTOGRAD = 6
    POST_AUTOGRAD_PASS = 7
    PRE_LOWERING_PASS = 8
    BUDA_GRAPH_PRE_PLACER = 9
    BALANCER_PASS = 10
    PRE_NETLIST_PASS = 11
    GENERATE_NETLIST = 12
    BACKEND_GOLDEN_VERIFY = 13
    FULL = 14


@dataclass
class MixedPrecision:
    """One configure_mixed_precision rule: what it matches and what it sets."""
    op_type: str | None = None
    name_regex: str | None = None
    output_df: DataFormat | None = None
    accumulate_df: DataFormat | None = None
    math_fidelity: MathFidelity | None = None

    def matches(self, name: str, op_type: str | None) -> bool:
        if self.name_regex is not None and not re.fullmatch(self.name_regex, name):
            return False
        return self.op_type is None or (op_type is not None and self.op_type == op_type)


@dataclass
class CompilerConfig:
    enable_tvm_cpu_fallback: bool = False
    default_df_override: DataFormat | None = None
    accumulate_df: DataFormat | None = None
    default_math_fidelity: MathFidelity = MathFidelity.HiFi4
    amp_level: int | None = None
    device_config: str | None = None
    op_intermediates_to_save: list[str] = field(default_factory=list)
    enable_training: bool = False
    mixed_precision: list[MixedPrecision] = field(default_factory=list)
    verbose: bool = False
    balancer_policy: str = "default"   # the TTNN optimizer's level (BALANCER_POLICIES)
    enable_consteval: bool = True      # the pipeline's const-eval (parameter-only ops hoisted and run once)
    enable_auto_fusing: bool = True    # the pipeline's TTIR/TTNN fusing passes
    compile_depth: CompileDepth = CompileDepth.FULL   # pybuda_compile stops there; devices compile whole
    enable_recompute: bool = False     # activations are kept for the backward pass (True is refused)
    backend_output_dir: str = "tt_build"   # where pybuda_compile writes its .ttnn binary (its "netlist")
    # the backend's files tt-buda reads a silicon system from: the simulated chip has none (set ones are refused)
    backend_cluster_descriptor_path: str = ""
    backend_runtime_params_path: str = ""
    store_backend_db_to_yaml: bool = False

    def __setattr__(self, name, value):
        """A script sets options as attributes (`_get_global_compiler_config().x = ...`): one this build does not
        have is refused, not kept and ignored."""
        if name not in self.__dataclass_fields__:
            raise PyBudaError(f"CompilerConfig has no option '{name}' in this build; supported: "
                              f"{', '.join(self.__dataclass_fields__)}")
        super().__setattr__(name, value)

    def check(self, staged: bool = False) -> None:
        """Refuse what set directly on the object this build cannot honour (set_configuration_options refuses
        it when asked). `staged`: the caller (pybuda_compile) honours compile_depth."""
        if self.balancer_policy not in BALANCER_POLICIES:
            raise PyBudaError(f"balancer_policy '{self.balancer_policy}' is not supported; supported: "
                              f"{', '.join(BALANCER_POLICIES)}")
        if self.compile_depth != CompileDepth.FULL and not staged:
            raise PyBudaError(f"compile_depth {self.compile_depth} is not supported: modules compile whole "
                              "(CompileDepth.FULL)")
        if self.amp_level not in (None, 0, 1, 2):
            raise PyBudaError(f"amp_level {self.amp_level} is not one of 0, 1, 2")
        if not isinstance(self.default_math_fidelity, MathFidelity):
            raise PyBudaError(f"default_math_fidelity must be a pybuda.MathFidelity, not {self.default_math_fidelity!r}")
        if self.accumulate_df not in ACCUMULATE:
            raise PyBudaError(f"accumulate_df {self.accumulate_df} is not supported: the dst register accumulates in "
                              "Float32 or Float16_b")
        if self.default_df_override not in (None, DataFormat.Float32, DataFormat.Float16_b, DataFormat.Float16):
            raise PyBudaError(f"default_df_override {self.default_df_override} is not supported (Float32, Float16_b, "
                              "Float16); block-float weights come from amp_level or configure_mixed_precision")
        if self.op_intermediates_to_save:
            raise PyBudaError("op_intermediates_to_save is not supported by this build")
        if self.enable_recompute:
            raise PyBudaError("enable_recompute is not supported: activations are kept for the backward pass, "
                              "not recomputed")
        for name in ("backend_cluster_descriptor_path", "backend_runtime_params_path", "store_backend_db_to_yaml"):
            if getattr(self, name):
                raise PyBudaError(f"{name} is not supported: the simulated chip has no backend cluster files")

    @property
    def changes_precision(self) -> bool:
        return bool(self.amp_level) or self.default_df_override not in (None, DataFormat.Float32) or \
            any(rule.output_df is not None for rule in self.mixed_precision)

    def pipeline_options(self) -> str:
        """The backend pipeline's options this configuration sets: math fidelity and accumulation of every
        op's compute_config, the optimizer's level, const-eval and fusing."""
        return (f"compute-cfg-math-fidelity={self.default_math_fidelity.value} "
                f"compute-cfg-fp32-dest-acc-en={ACCUMULATE[self.accumulate_df]} "
                f"optimization-level={BALANCER_POLICIES[self.balancer_policy]} "
                f"enable-const-eval={str(self.enable_consteval).lower()} "
                f"enable-fusing-pass={str(self.enable_auto_fusing).lower()}")

    def to_json(self) -> dict:
        def plain(v):
            return v.name if isinstance(v, Enum) else [plain(x) for x in v] if isinstance(v, list) else \
                {k: plain(x) for k, x in vars(v).items()} if isinstance(v, MixedPrecision) else v
        return {k: plain(v) for k, v in vars(self).items()}

    @classmethod
    def from_json(cls, data: dict) -> "CompilerConfig":
        def enum(kind, v):
            return None if v is None else kind[v]
        cfg = cls(**{k: v for k, v in data.items() if k not in ("default_df_override", "accumulate_df",
                                                                 "default_math_fidelity", "mixed_precision",
                                                                 "compile_depth")})
        cfg.compile_depth = CompileDepth[data.get("compile_depth", "FULL")]
        cfg.default_df_override = enum(DataFormat, data["default_df_override"])
        cfg.accumulate_df = enum(DataFormat, data["accumulate_df"])
        cfg.default_math_fidelity = MathFidelity[data["default_math_fidelity"]]
        cfg.mixed_precision = [MixedPrecision(m["op_type"], m["name_regex"], enum(DataFormat, m["output_df"]),
                                              enum(DataFormat, m["accumulate_df"]),
                                              enum(MathFidelity, m["math_fidelity"])) for m in data["mixed_precision"]]
        return cfg


class _Global:
    """PyBuda's process-wide configuration (its API is global: `pybuda_reset()` starts it afresh)."""
    config = CompilerConfig()


def _get_global_compiler_config() -> CompilerConfig:
    return _Global.config


def reset() -> None:
    _Global.config = CompilerConfig()


_clear_global_compiler_config = reset  # tt-buda's name for it


def _set_global_compiler_config(config: CompilerConfig) -> None:
    if not isinstance(config, CompilerConfig):
        raise PyBudaError(f"the global compiler config must be a pybuda.CompilerConfig, not {type(config).__name__}")
    _Global.config = config


def set_configuration_options(enable_tvm_cpu_fallback: bool | None = None,
                              default_df_override: DataFormat | None = None,
                              accumulate_df: DataFormat | None = None,
                              math_fidelity: MathFidelity | None = None,
                              amp_level: int | None = None,
                              device_config: str | None = None,
                              op_intermediates_to_save: list[str] | None = None,
                              harvested_rows: list[int] | None = None,
                              backend_device_descriptor_path: str | None = None,
                              enable_training: bool | None = None,
                              balancer_policy: str | None = None,
                              enable_consteval: bool | None = None,
                              enable_auto_fusing: bool | None = None,
                              dram_placement_algorithm=None,
                              **unsupported) -> None:
    """Set global compiler options; values this build cannot honour are refused, not ignored."""
    cfg = _Global.config
    if unsupported:
        raise PyBudaError(f"set_configuration_options: {', '.join(sorted(unsupported))} not supported by this build")
    if dram_placement_algorithm not in (None, DRAMPlacementAlgorithm.ROUND_ROBIN):
        raise PyBudaError(f"DRAM placement {dram_placement_algorithm.name} is not supported: the TTNN backend "
                          "interleaves DRAM buffers round robin over all channels (DRAMPlacementAlgorithm.ROUND_ROBIN)")
    if isinstance(balancer_policy, Enum):  # a pybuda._C.balancer.PolicyType
        balancer_policy = balancer_policy.value
    if balancer_policy is not None and balancer_policy not in BALANCER_POLICIES:
        raise PyBudaError(f"balancer_policy '{balancer_policy}' is not supported; supported: "
                          f"{', '.join(BALANCER_POLICIES)}")
    if harvested_rows:
        raise PyBudaError("harvested_rows is not supported: the simulated chips are unharvested")
    if backend_device_descriptor_path is not None:
        raise PyBudaError("backend_device_descriptor_path is not supported: pick a simulated chip with "
                          f"device_config ({', '.join(DEVICE_CONFIGS)}) or TTDevice(arch=...)")
    if device_config is not None and device_config not in DEVICE_CONFIGS:
        raise PyBudaError(f"device_config '{device_config}' is not simulated; supported: {', '.join(DEVICE_CONFIGS)}")
    if amp_level is not None and amp_level not in (0, 1, 2):
        raise PyBudaError(f"amp_level {amp_level} is not one of 0, 1, 2")
    if op_intermediates_to_save:
        raise PyBudaError("op_intermediates_to_save is not supported by this build")
    if default_df_override is not None and default_df_override not in (DataFormat.Float32, DataFormat.Float16_b,
                                                                       DataFormat.Float16):
        raise PyBudaError(f"default_df_override {default_df_override} is not supported (Float32, Float16_b, Float16); "
                          "block-float weights come from amp_level or configure_mixed_precision")
    if accumulate_df not in ACCUMULATE:
        raise PyBudaError(f"accumulate_df {accumulate_df} is not supported: the dst register accumulates in "
                          "Float32 or Float16_b")
    for name, value, kind in (("default_df_override", default_df_override, DataFormat),
                              ("accumulate_df", accumulate_df, DataFormat), ("math_fidelity", math_fidelity, MathFidelity)):
        if value is not None and not isinstance(value, kind):
            raise PyBudaError(f"{name} must be a pybuda.{kind.__name__}, not {value!r}")
    updates = {"enable_tvm_cpu_fallback": enable_tvm_cpu_fallback, "default_df_override": default_df_override,
               "accumulate_df": accumulate_df, "default_math_fidelity": math_fidelity, "amp_level": amp_level,
               "device_config": device_config, "op_intermediates_to_save": op_intermediates_to_save,
               "enable_training": enable_training, "balancer_policy": balancer_policy,
               "enable_consteval": enable_consteval, "enable_auto_fusing": enable_auto_fusing}
    for key, value in updates.items():
        if value is not None:
            setattr(cfg, key, value)


def configure_mixed_precision(op_type: str | None = None, name_regex: str | None = None,
                              output_df: DataFormat | None = None, accumulate_df: DataFormat | None = None,
                              math_fidelity: MathFidelity | None = None, **unsupported) -> None:
    """A rule setting the data format (of parameters matched by name, or of the weights an op type reads)."""
    if unsupported:
        raise PyBudaError(f"configure_mixed_precision: {', '.join(sorted(unsupported))} not supported "
                          "(supported: op_type, name_regex, output_df, accumulate_df, math_fidelity)")
    if math_fidelity is not None or accumulate_df is not None:
        raise PyBudaError("configure_mixed_precision: per-op math_fidelity and accumulate_df are not supported; set "
                          "them for the whole model with set_configuration_options")
    if op_type is None and name_regex is None:
        raise PyBudaError("configure_mixed_precision needs op_type or name_regex")
    _Global.config.mixed_precision.append(MixedPrecision(op_type, name_regex, output_df, accumulate_df, math_fidelity))


def insert_nop(src_op: str, dest_ops, *, hoist_tms: bool = True, nop_count: int = 1, daisy_chain: bool = False,
               is_fj_buffering: bool = False) -> None:
    """Refused: buffering nops stand between ops placed in epochs on a Grayskull/Wormhole grid; our compiler's
    TTNN ops pass tensors through DRAM/L1 buffers with no such place to put one."""
    raise PyBudaError("insert_nop is not supported: the TTNN backend has no buffering nops between ops")


def override_dram_queue_placement(name: str, *, channel: int | None = None, chip_id: int | None = None) -> None:
    """Refused: the TTNN backend interleaves DRAM buffers over every channel; there are no named queues to pin."""
    raise PyBudaError("override_dram_queue_placement is not supported: DRAM tensors are interleaved over all "
                      "channels by the TTNN backend")


def remove_cpu_fallback_ops(op_types) -> None:
    """tt-buda keeps a set of op types it runs on the CPU under enable_tvm_cpu_fallback even where the device could;
    removing one sends it to the device. Here that set is empty: every op our importer lowers runs on the device and
    only ops with no lowering fall back, so each named op type is already a device op."""
    for op_type in [op_types] if isinstance(op_types, str) else op_types:
        if not isinstance(op_type, str):
            raise PyBudaError(f"remove_cpu_fallback_ops: op types are names (str), not {op_type!r}")


# the environment variable holding the veto, as tt-buda's CI conftest sets and reads it
OVERRIDE_VETO = "PYBUDA_OVERRIDES_VETO"


def _set_pybuda_override_veto(general_config_dict: dict, environ_config_dict: dict) -> None:
    """Veto a test's compiler options: from then on every compile uses, for each CompilerConfig option, the test's
    value where `general_config_dict` maps it to "", the given value where it maps it to one, and the default
    where it does not name it. `environ_config_dict` does the same for PYBUDA_* environment options; this build
    reads none, so only "" (keep) entries are accepted. Kept, as tt-buda keeps it, in the process environment."""
    for name, value in general_config_dict.items():
        if name not in CompilerConfig.__dataclass_fields__ and value != "":
            raise PyBudaError(f"override veto: CompilerConfig has no option '{name}' in this build")
    set_values = sorted(name for name, value in environ_config_dict.items() if value != "")
    if set_values:
        raise PyBudaError(f"override veto: environment options ({', '.join(set_values)}) are not read by this build")
    os.environ[OVERRIDE_VETO] = json.dumps({"general_conf": general_config_dict, "environ_conf": environ_config_dict})


def vetoed(cfg: CompilerConfig) -> CompilerConfig:
    """`cfg` as the override veto in the environment leaves it (itself when there is none)."""
    veto = os.environ.get(OVERRIDE_VETO)
    if veto is None:
        return cfg
    general = json.loads(veto)["general_conf"]
    result = CompilerConfig()
    for option in fields(CompilerConfig):
        if general.get(option.name) == "":
            setattr(result, option.name, getattr(cfg, option.name))
        elif option.name in general:
            setattr(result, option.name, general[option.name])
    return result


def set_epoch_break(op_names) -> None:
    raise PyBudaError("set_epoch_break is not supported: the TTNN backend runs ops one after another, not in epochs")


def set_chip_break(op_names) -> None:
    raise PyBudaError("set_chip_break is not supported: the simulated system has one chip")
