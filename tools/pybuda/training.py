"""Training on the simulated device: a module's forward and backward programs and its optimizer's update program.

The backward graph comes from torch's autograd, not from derivative rules of our own: AOT autograd traces the
joint forward/backward graph of the module (and of its loss, when the loss module sits on the same device) over
core ATen, and its default partitioner splits it (saving what the backward reads) into

    forward   (parameters, inputs[, targets])        -> outputs (or the loss), activations saved for backward
    backward  (saved, output gradients, accumulated)  -> accumulated + new parameter gradients, input gradients

Both are lowered by the PyTorch importer to TTIR and compiled to `.ttnn` binaries like any inference module; the
backward program adds its gradients to the accumulated ones itself, so accumulation across `run_backward` calls
happens on the device (`zero_grad` starts the accumulators from zero). The optimizer's rule (pybuda.optimizers)
is traced over all parameters at once into a third program: parameters, gradients, optimizer state and the step's
scalars (learning rate, bias corrections) in, new parameters and state out.

The parameters, gradients and optimizer state are the device's: each program reads and writes them, and the
runtime (which keeps no buffers between programs) is handed them as program inputs and gives them back as results.
With default_df_override Float16_b/Float16 the forward and backward compute in that format from float32 master
parameters (the casts are part of the traced graphs, so gradients come back in float32).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import torch

from pybuda.compiled import HALF_TYPES
from pybuda.config import CompilerConfig, PyBudaError


@dataclass
class StepReport:
    """What one training step cost on the simulated device: modelled time per program and device memory."""
    arch: str
    forward_ns: float = 0.0
    backward_ns: float = 0.0
    optimizer_ns: float = 0.0
    weights_bytes: int = 0
    gradients_bytes: int = 0
    optimizer_state_bytes: int = 0
    peak_dram_per_channel: int = 0
    forward_calls: int = 0
    backward_calls: int = 0

    @property
    def step_ns(self) -> float:
        return self.forward_ns + self.backward_ns + self.optimizer_ns

    def text(self) -> str:
        mb = 2 ** 20
        return "\n".join([
            f"Modelled training step ({self.arch}): {self.step_ns / 1000:.2f} us",
            f"  forward   {self.forward_ns / 1000:10.2f} us  ({self.forward_calls} microbatch(es))",
            f"  backward  {self.backward_ns / 1000:10.2f} us  ({self.backward_calls} microbatch(es))",
            f"  optimizer {self.optimizer_ns / 1000:10.2f} us",
            "Device memory for training (MB):",
            f"  weights {self.weights_bytes / mb:.3f}, gradients {self.gradients_bytes / mb:.3f}, "
            f"optimizer state {self.optimizer_state_bytes / mb:.3f}",
            f"  peak DRAM per channel {self.peak_dram_per_channel / mb:.3f}"])


def _decompositions() -> dict:
    """Core ATen, except the ops the importer lowers whole (the same table inference exports with)."""
    from ttmlir.frontends.pytorch import LOWERED_WHOLE

    table = torch.export.default_decompositions()
    for op in LOWERED_WHOLE:
        table.pop(op, None)
    return dict(table)


def _joint_graphs(fn, primals: list[torch.Tensor], wants_grad: list[bool]):
    """AOT autograd's forward and backward graphs of `fn(*primals)` (a tuple of tensors), with their sample
    inputs. The backward graph takes the saved activations then one gradient per output."""
    from torch._functorch.aot_autograd import aot_function
    from torch._functorch.partitioners import default_partition

    from torch._functorch.aot_autograd import make_boxed_func

    graphs = {}

    def keep(kind):
        def compiler(gm, example_inputs):  # keeps the graph; the trace itself runs it in torch
            graphs[kind] = (gm, list(example_inputs))
            return make_boxed_func(gm)
        return compiler

    traced = aot_function(fn, fw_compiler=keep("forward"), bw_compiler=keep("backward"),
                          partition_fn=default_partition, decompositions=_decompositions())
    leaves = [p.detach().clone().requires_grad_(g) for p, g in zip(primals, wants_grad)]
    # attention as its math (matmuls, softmax): autograd then derives its backward from those ops; a fused CPU
    # kernel's backward is one op with no TTIR lowering
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
        outputs = traced(*leaves)
    differentiable = [o for o in outputs if o.requires_grad]
    if not differentiable:
        raise PyBudaError("no output depends on a trainable parameter: nothing to train")
    torch.autograd.backward(differentiable, [torch.ones_like(o) for o in differentiable])
    return graphs["forward"], graphs["backward"], len(outputs)


class _Accumulate(torch.nn.Module):
    """The backward graph followed by the gradient accumulation: (saved, output gradients, accumulators) ->
    (accumulators + parameter gradients, input gradients)."""

    def __init__(self, backward: torch.fx.GraphModule, n_params: int, n_acc: int, grad_inputs: list[int]):
        super().__init__()
        self.backward, self.n_params, self.n_acc, self.grad_inputs = backward, n_params, n_acc, grad_inputs

    def forward(self, *args):
        grads = self.backward(*args[:-self.n_acc])
        accumulated = args[-self.n_acc:]
        new = tuple(a + g if g is not None else a for a, g in zip(accumulated, grads[:self.n_acc]))
        return new + tuple(grads[self.n_params + i] for i in self.grad_inputs)


class _Update(torch.nn.Module):
    """An optimizer's rule over every trained parameter: (parameters, gradients, step scalars, state) ->
    (parameters, state)."""

    def __init__(self, optimizer, count: int, scalar_keys: list[str], state_keys: list[str]):
        super().__init__()
        self.optimizer, self.count, self.scalar_keys, self.state_keys = optimizer, count, scalar_keys, state_keys

    def forward(self, *args):
        n, k = self.count, len(self.scalar_keys)
        params, grads = args[:n], args[n:2 * n]
        scalars = dict(zip(self.scalar_keys, args[2 * n:2 * n + k]))
        states = args[2 * n + k:]
        new_params, new_states = [], []
        for i, (p, g) in enumerate(zip(params, grads)):
            state = {key: states[j * n + i] for j, key in enumerate(self.state_keys)}
            p, state = self.optimizer.update(p, g, scalars, state)
            new_params.append(p)
            new_states.append(state)
        return tuple(new_params) + tuple(s[key] for key in self.state_keys for s in new_states)


def _compile(fn, samples: tuple, cfg: CompilerConfig, arch: str, name: str, constants: dict | None = None):
    """`fn` over `samples` as one core ATen graph (AOT's graphs as they are, wrappers traced with make_fx), compiled
    for the device: no torch.export round trip; every placeholder is a program input but those in `constants`
    (by position), which are folded in."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from pybuda.compiler import compile_program, graph_program

    gm = fn if isinstance(fn, torch.fx.GraphModule) else \
        make_fx(fn, decomposition_table=_decompositions(), tracing_mode="fake")(*samples)
    constants = constants or {}
    inputs = [x for i, x in enumerate(samples) if i not in constants]
    return compile_program(graph_program(gm, constants), inputs, cfg, arch, name)


def _nbytes(tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


class TrainingProgram:
    """One module (with its loss module, if that is on the same device) compiled for training on `arch`."""

    def __init__(self, name: str, module: torch.nn.Module, loss: torch.nn.Module | None, samples: tuple,
                 targets: tuple, input_grads: bool, cfg: CompilerConfig, arch: str):
        if cfg.amp_level or any(rule.output_df is not None for rule in cfg.mixed_precision):
            raise PyBudaError(f"{name}: block-float weights (amp_level, configure_mixed_precision) are for "
                              "inference; training keeps float32 parameters (default_df_override sets the compute "
                              "format)")
        if cfg.enable_tvm_cpu_fallback:
            # a CPU segment inside a training graph would need torch's autograd between device programs
            cfg = CompilerConfig(**{**vars(cfg), "enable_tvm_cpu_fallback": False})
        self.name, self.arch, self.has_loss = name, arch, loss is not None
        self.compute_dtype = HALF_TYPES.get(cfg.default_df_override)
        named = dict(module.named_parameters())
        self.trainable = [n for n, p in named.items() if p.requires_grad]
        self.frozen = [n for n, p in named.items() if not p.requires_grad]
        self.buffers = [n for n, _ in module.named_buffers()]
        if not self.trainable:
            raise PyBudaError(f"{name}: the module has no parameter with requires_grad=True")
        self.params = {n: named[n].detach().float().clone() for n in self.trainable}
        self.constants = {**{n: named[n].detach() for n in self.frozen}, **dict(module.named_buffers())}
        self.grads = {n: torch.zeros_like(p) for n, p in self.params.items()}
        self.saved: deque = deque()
        self.optimizer = None
        self.optimizer_state: dict[str, dict[str, torch.Tensor]] = {}
        self.report = StepReport(arch)
        self._update = None
        inputs = [x for x in samples]
        self.n_inputs, self.n_targets = len(inputs), len(targets)
        self.grad_inputs = [i for i, x in enumerate(inputs) if input_grads and x.is_floating_point()]
        keys = self.trainable + self.frozen + self.buffers
        compute = self.compute_dtype

        def fn(*args):
            values = dict(zip(keys, args[:len(keys)]))
            xs = args[len(keys):len(keys) + self.n_inputs]
            ts = args[len(keys) + self.n_inputs:]
            if compute is not None:  # the casts are traced: bf16/f16 compute from float32 master weights
                values = {k: v.to(compute) if v.is_floating_point() else v for k, v in values.items()}
                xs = tuple(x.to(compute) if x.is_floating_point() else x for x in xs)
            out = torch.func.functional_call(module, values, xs)
            outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if compute is not None:
                outs = tuple(o.float() if o.is_floating_point() else o for o in outs)
            if loss is not None:
                outs = (loss(*outs, *ts),)
            return outs

        primals = [self.params[n] for n in self.trainable] + [self.constants[n] for n in self.frozen + self.buffers] \
            + inputs + list(targets)
        wants = [True] * len(self.trainable) + [False] * (len(self.frozen) + len(self.buffers)) + \
            [i in self.grad_inputs for i in range(len(inputs))] + [False] * len(targets)
        was_training = module.training
        module.eval()  # dropout off, batch norm on its running statistics: the device runs the module as traced
        try:
            (fw, fw_samples), (bw, bw_samples), self.n_outputs = _joint_graphs(fn, primals, wants)
        except PyBudaError:
            raise
        except Exception as exc:
            text = str(exc).strip().splitlines()
            raise PyBudaError(f"{name}: tracing the training graph failed: {text[0] if text else type(exc).__name__}") \
                from None
        finally:
            module.train(was_training)
        self.n_saved = len(bw_samples) - self.n_outputs
        self.output_shapes = [tuple(s.shape) for s in bw_samples[self.n_saved:]]
        fixed = range(len(self.trainable), len(keys))  # frozen weights and buffers: folded into the forward program
        self.forward_program = _compile(fw, tuple(fw_samples), cfg, arch, f"{name}_forward",
                                        {i: primals[i] for i in fixed})
        accumulate = _Accumulate(bw, len(keys), len(self.trainable), self.grad_inputs)
        acc_samples = tuple(bw_samples) + tuple(self.grads[n] for n in self.trainable)
        self.backward_program = _compile(accumulate, acc_samples, cfg, arch, f"{name}_backward")
        self.report.weights_bytes = _nbytes(self.params.values()) + _nbytes(self.constants.values())
        self.report.gradients_bytes = _nbytes(self.grads.values())

    # --- the three programs ---------------------------------------------------------------------------------

    def forward(self, inputs: tuple, targets: tuple = ()) -> tuple:
        """Run the forward program; keep its saved activations for the matching backward."""
        if len(inputs) != self.n_inputs or len(targets) != self.n_targets:
            raise PyBudaError(f"{self.name}: training takes {self.n_inputs} input(s) and {self.n_targets} target(s), "
                              f"got {len(inputs)} and {len(targets)}")
        args = [self.params[n] for n in self.trainable] + list(inputs) + list(targets)
        results = self.forward_program.run(args)
        self._account(self.forward_program, "forward_ns")
        self.report.forward_calls += 1
        outputs, saved = results[:self.n_outputs], results[self.n_outputs:]
        self.saved.append(saved)
        return tuple(outputs)

    def backward(self, output_grads: tuple | None, zero_grad: bool) -> tuple:
        """Run the backward program on the oldest forward's activations; returns the input gradients."""
        if not self.saved:
            raise PyBudaError(f"{self.name}: run_backward without a forward pass to go back through")
        if output_grads is None:
            output_grads = tuple(torch.ones(s) for s in self.output_shapes)
        if zero_grad:
            self.grads = {n: torch.zeros_like(g) for n, g in self.grads.items()}
        args = list(self.saved.popleft()) + [g.reshape(s) for g, s in zip(output_grads, self.output_shapes)] + \
            [self.grads[n] for n in self.trainable]
        results = self.backward_program.run(args)
        self._account(self.backward_program, "backward_ns")
        self.report.backward_calls += 1
        self.grads = dict(zip(self.trainable, results[:len(self.trainable)]))
        input_grads = [None] * self.n_inputs
        for i, g in zip(self.grad_inputs, results[len(self.trainable):]):
            input_grads[i] = g
        return tuple(input_grads)

    def step(self, optimizer) -> None:
        """One optimizer update of the trained parameters, on the device."""
        names = [n for n in self.trainable if optimizer.parameter_names is None or n in optimizer.parameter_names]
        if optimizer is not self.optimizer:
            self.optimizer, self._update = optimizer, None
            self.optimizer_state = {n: optimizer.init_state(self.params[n]) for n in names}
            self.report.optimizer_state_bytes = _nbytes(t for s in self.optimizer_state.values() for t in s.values())
        scalars = optimizer.step_inputs()
        scalar_keys, state_keys = list(scalars), list(optimizer.state_keys)
        args = [self.params[n] for n in names] + [self.grads[n] for n in names] + \
            [torch.tensor([v], dtype=torch.float32) for v in scalars.values()] + \
            [self.optimizer_state[n][k] for k in state_keys for n in names]
        if self._update is None:
            self._update = _compile(_Update(optimizer, len(names), scalar_keys, state_keys), tuple(args),
                                    CompilerConfig(), self.arch, f"{self.name}_{optimizer.get_type()}")
        results = self._update.run(args)
        self._account(self._update, "optimizer_ns", replace=True)
        for i, n in enumerate(names):
            self.params[n] = results[i]
            for j, k in enumerate(state_keys):
                self.optimizer_state[n][k] = results[len(names) * (1 + j) + i]
        optimizer.step_count += 1

    # --- reports ------------------------------------------------------------------------------------------

    def _account(self, program, slot: str, replace: bool = False) -> None:
        report = program.last_report
        if report is None:
            return
        spent = report.device_ns
        setattr(self.report, slot, spent if replace else getattr(self.report, slot) + spent)
        self.report.peak_dram_per_channel = max(self.report.peak_dram_per_channel, report.peak_dram_per_channel)

    def start_step_report(self) -> None:
        """Begin timing a new step (forward/backward times add up over its microbatches)."""
        self.report = StepReport(self.arch, weights_bytes=self.report.weights_bytes,
                                 gradients_bytes=self.report.gradients_bytes,
                                 optimizer_state_bytes=self.report.optimizer_state_bytes)

