"""`pybuda.verify.config`: what a verification run does (`VerifyConfig`) and whether it trains (`TestKind`).

The fields are tt-buda's. Each one either acts here or, where it names a stage this build does not have (netlist
golden, net2pipe, TVM and per-pass graph checks, intermediate tensors), is refused when set to ask for it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

import torch

from pybuda._C import DataFormat
from pybuda._C.backend_api import BackendDevice, BackendType, DeviceMode
from pybuda.config import PyBudaError


class TestKind(Enum):
    INFERENCE = 1
    TRAINING = 2
    TRAINING_RECOMPUTE = 3

    def is_training(self) -> bool:
        return self in (TestKind.TRAINING, TestKind.TRAINING_RECOMPUTE)

    def is_recompute(self) -> bool:
        return self is TestKind.TRAINING_RECOMPUTE

    @classmethod
    def get(cls, training: bool, recompute: bool = False) -> "TestKind":
        return cls.INFERENCE if not training else cls.TRAINING_RECOMPUTE if recompute else cls.TRAINING


class NebulaGalaxy:
    """The chip ids of a Nebula Galaxy system (tt-buda's CI lists them); asking for them is refused by TTDevice."""
    chip_ids = [0, 11, 10, 9, 8, 7, 19, 20, 21, 22, 23, 24, 6, 5, 14, 13, 12, 16, 15, 3, 4, 26, 25, 32, 31, 30, 29,
                28, 27, 1, 2, 18, 17]


# fields naming checks of compile stages this build does not have: (field, the value that asks for it, why)
_STAGES = [
    ("intermediates", True, "intermediate tensors of PyBuda's graph passes are not kept"),
    ("run_golden", True, "there is no netlist golden backend; results are checked against torch"),
    ("run_net2pipe", True, "there are no netlists"),
    ("verify_all", True, "there are no per-stage graphs to check"),
    ("verify_post_autograd_passes", True, "there are no autograd graph passes"),
    ("verify_post_placer", True, "there is no placer"),
    ("verify_each_buda_pass", True, "there are no Buda passes"),
    ("verify_tvm_compile", True, "models are not compiled through TVM"),
    ("verify_pybuda_codegen_vs_framework", True, "no PyBuda code is generated"),
    ("enable_input_gradient_checking", True, "the first device's input gradients are not computed"),
]


@dataclass
class VerifyConfig:
    graph_name: str = "graph"
    enabled: bool = True                      # False: run without comparing
    intermediates: bool = False
    rtol: dict = field(default_factory=dict)  # per torch dtype (or one number for all)
    atol: dict = field(default_factory=dict)
    relative_atol: float = 0.1                # atol as this fraction of the golden's largest magnitude
    pcc: float | None = None                  # PCC threshold (0.99 when not given)
    dump_tensors_path: str = ""
    run_golden: bool = False
    run_net2pipe: bool = False
    golden_ignore_df_precision: bool = True   # devtype Golden computes in float32 (fp32_fallback not applied)
    chip_ids: list | None = None
    num_chips: int | None = None
    verify_each_buda_pass: bool = False
    golden_compare_callback: Callable[[object, object], bool] | None = None  # an extra check every tensor must pass
    verify_tvm_compile: bool = False
    verify_pipeline_result_vs_framework: bool = False  # results are compared with the framework (torch) either way
    verify_pybuda_codegen_vs_framework: bool = False
    verify_all: bool = False
    verify_last: bool = True                  # compare the final results (False: like enabled=False)
    verify_post_autograd_passes: bool = False
    verify_post_placer: bool = False
    waive_gradient_errors: set = field(default_factory=set)  # parameter names (substrings) whose mismatch is waived
    sequential: bool = True                   # devices run one after another here either way
    test_kind: TestKind = TestKind.INFERENCE
    devtype: BackendType = BackendType.Golden
    devmode: DeviceMode = DeviceMode.CompileAndRun
    arch: BackendDevice = BackendDevice.Wormhole_B0
    scale_loss: float = 50.0                  # the loss is multiplied by this (larger gradients to compare)
    optimizer: dict | None = field(default_factory=lambda: {"type": "sgd", "params": {"learning_rate": 50.0}})
    scheduler: dict | None = None
    epochs: int = 1
    steps: int = 1
    accumulation_steps: int = 1
    microbatch_count: int = 1
    epoch_breaks: list = field(default_factory=list)
    fp32_fallback: DataFormat = DataFormat.Float16_b
    skip_shutdown: bool = False               # leave the devices and queues for the caller to read
    tti_path: str | None = None               # DeviceMode.CompileOnly: the device image written here
    checkpoint_interval: int = 1
    enable_input_gradient_checking: bool = False
    enable_parameter_gradient_checking: bool = True

    def __post_init__(self):
        for name in ("rtol", "atol"):
            value = getattr(self, name)
            if isinstance(value, (int, float)):
                setattr(self, name, {dt: float(value) for dt in (torch.float32, torch.float16, torch.bfloat16)})
        if self.pcc is None:
            self.pcc = 0.99
        for name, asks, why in _STAGES:
            if getattr(self, name) == asks:
                raise PyBudaError(f"VerifyConfig({name}={asks!r}) is not supported: {why}")
        if self.dump_tensors_path:
            raise PyBudaError("VerifyConfig(dump_tensors_path=...) is not supported: there are no backend tensor dumps")
        if self.epoch_breaks:
            raise PyBudaError("VerifyConfig(epoch_breaks=...) is not supported: the TTNN backend runs ops one after "
                              "another, not in epochs")
        if self.scheduler is not None:
            raise PyBudaError("VerifyConfig(scheduler=...) is not supported: verify steps no scheduler; step one "
                              "with run_schedulers in your own training loop")
        if self.test_kind.is_recompute():
            raise PyBudaError("TestKind.TRAINING_RECOMPUTE is not supported: activations are kept, not recomputed")
        if self.devmode == DeviceMode.CompileOnly and self.test_kind.is_training():
            raise PyBudaError("VerifyConfig(devmode=DeviceMode.CompileOnly) with training is not supported: device "
                              "images hold inference programs")
        if self.devmode == DeviceMode.RunOnly:
            raise PyBudaError("VerifyConfig(devmode=DeviceMode.RunOnly) is not supported: the golden outputs are not "
                              "stored in device images; load one with TTDevice.load_image and compare yourself")
        for name in ("epochs", "steps", "accumulation_steps", "microbatch_count"):
            if getattr(self, name) < 1:
                raise PyBudaError(f"VerifyConfig({name}={getattr(self, name)}): must be at least 1")

    @classmethod
    def disabled(cls) -> "VerifyConfig":
        return cls(enabled=False, verify_last=False, scale_loss=1.0)

    def total_number_of_inputs(self) -> int:
        return self.epochs * self.steps * self.accumulation_steps * self.microbatch_count

    def checks(self) -> bool:
        """Whether the results are compared at all."""
        return self.enabled and self.verify_last


def should_waive_gradient(param_name: str, verify_cfg: VerifyConfig) -> bool:
    return any(waived in param_name for waived in verify_cfg.waive_gradient_errors)
