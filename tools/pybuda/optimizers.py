"""`pybuda.optimizers`: SGD, Adam, AdamW, LAMB and LARS, with tt-buda's constructor parameters.

Each optimizer states its update once, as torch code over one parameter (`update`): the TT device traces it
over all of its parameters and compiles it to TTIR like a module, so the update runs on the simulated device
(parameters, gradients and optimizer state in its DRAM). The learning rate and the step-dependent factors are
program inputs, so a scheduler changes them without recompiling. `torch_parameter_update` is the same rule applied
eagerly in torch, for host-side checks; `get_pytorch_optimizer` names torch's own optimizer where one exists."""

from __future__ import annotations

import torch


class Optimizer:
    """What every optimizer has: a learning rate the schedulers set, per-parameter state, an update rule."""

    state_keys: tuple[str, ...] = ()

    def __init__(self, learning_rate: float, parameters=None, device_params: bool = False):
        if learning_rate < 0:
            raise ValueError(f"invalid learning rate {learning_rate}")
        if parameters is not None and device_params:
            raise ValueError("pass either parameters or device_params=True, not both")
        self.learning_rate = float(learning_rate)
        self.device_params = device_params
        # parameters given at construction: only those (by name) are trained; else every trainable one on the device
        self.parameter_names = None if parameters is None else \
            [getattr(p, "pybuda_name", None) or getattr(p, "name", None) or str(i) for i, p in enumerate(parameters)]
        self.step_count = 0
        self.torch_optimizer = None

    def get_type(self) -> str:
        return type(self).__name__.lower()

    def set_optimizer_parameters(self, learning_rate: float | None = None) -> None:
        """Change the learning rate the next optimizer step uses (schedulers call this)."""
        if learning_rate is not None:
            self.learning_rate = float(learning_rate)

    def get_optimizer_state_keys(self) -> list[str]:
        return list(self.state_keys)

    def init_state(self, parameter: torch.Tensor) -> dict[str, torch.Tensor]:
        return {k: torch.zeros_like(parameter) for k in self.state_keys}

    def step_inputs(self) -> dict[str, float]:
        """The scalars of the coming step the program takes as inputs (the learning rate, bias corrections)."""
        return {"lr": self.learning_rate}

    def update(self, parameter, gradient, scalars: dict, state: dict) -> tuple[torch.Tensor, dict]:
        raise TypeError(f"{type(self).__name__} does not define its update")

    def torch_parameter_update(self, *, parameter_name: str, parameter: torch.Tensor,
                               gradient: torch.Tensor) -> torch.Tensor:
        """The update applied eagerly with the current step's scalars and fresh state (no state is kept)."""
        scalars = {k: torch.tensor([v], dtype=parameter.dtype) for k, v in self.step_inputs().items()}
        return self.update(parameter, gradient, scalars, self.init_state(parameter))[0]


class SGD(Optimizer):
    def __init__(self, learning_rate: float, parameters=None, device_params: bool = False):
        super().__init__(learning_rate, parameters, device_params)

    def update(self, parameter, gradient, scalars, state):
        return parameter - scalars["lr"] * gradient, {}

    def get_pytorch_optimizer(self, parameters: dict, lr=None) -> torch.optim.Optimizer:
        self.set_optimizer_parameters(lr)
        return torch.optim.SGD(list(parameters.values()), self.learning_rate)


class Adam(Optimizer):
    """Adam (and, with enable_adam_w, decoupled weight decay). Without bias_correction the moments are used as
    they are; with it, the step's 1/(1-beta^t) factors are program inputs."""

    def __init__(self, learning_rate: float, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 weight_decay: float = 0.0, bias_correction: bool = True, parameters=None,
                 device_params: bool = False, enable_adam_w: bool = False):
        super().__init__(learning_rate, parameters, device_params)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self.weight_decay, self.bias_correction, self.enable_adam_w = weight_decay, bias_correction, enable_adam_w

    state_keys = ("mean", "variance")

    def step_inputs(self):
        t = self.step_count + 1
        scalars = {"lr": self.learning_rate}
        if self.bias_correction:
            scalars["mean_scale"] = 1.0 / (1.0 - self.beta1 ** t)
            scalars["variance_scale"] = 1.0 / (1.0 - self.beta2 ** t) ** 0.5
        return scalars

    def update(self, parameter, gradient, scalars, state):
        if self.weight_decay and not self.enable_adam_w:
            gradient = gradient + self.weight_decay * parameter
        mean = self.beta1 * state["mean"] + (1 - self.beta1) * gradient
        variance = self.beta2 * state["variance"] + (1 - self.beta2) * gradient * gradient
        if self.bias_correction:
            step = (mean * scalars["mean_scale"]) / (torch.sqrt(variance) * scalars["variance_scale"] + self.epsilon)
        else:
            step = mean / (torch.sqrt(variance) + self.epsilon)
        if self.weight_decay and self.enable_adam_w:
            step = step + self.weight_decay * parameter
        return parameter - scalars["lr"] * step, {"mean": mean, "variance": variance}

    def get_pytorch_optimizer(self, parameters: dict, lr=None) -> torch.optim.Optimizer:
        self.set_optimizer_parameters(lr)
        kind = torch.optim.AdamW if self.enable_adam_w else torch.optim.Adam
        return kind(list(parameters.values()), lr=self.learning_rate, betas=(self.beta1, self.beta2),
                    eps=self.epsilon, weight_decay=self.weight_decay)


class AdamW(Adam):
    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8,
                 weight_decay: float = 0.01, bias_correction: bool = True, parameters=None,
                 device_params: bool = False):
        super().__init__(learning_rate, beta1, beta2, eps, weight_decay, bias_correction, parameters, device_params,
                         enable_adam_w=True)


def _norm(x: torch.Tensor) -> torch.Tensor:
    return torch.sqrt(torch.sum(x * x))


class LAMB(Optimizer):
    """Adam's ratio scaled per parameter by the trust ratio |w| / |r| (1 where either norm is 0), clipped."""

    state_keys = ("mean", "variance")

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8,
                 weight_decay: float = 0.01, correction: bool = False, clip_value=(0.0, 10.0), parameters=None,
                 device_params: bool = False):
        super().__init__(learning_rate, parameters, device_params)
        if not (0 <= beta1 < 1 and 0 <= beta2 < 1) or weight_decay < 0:
            raise ValueError(f"invalid LAMB betas ({beta1}, {beta2}) or weight_decay {weight_decay}")
        if not (0 <= clip_value[0] < clip_value[1] <= 10):
            raise ValueError(f"invalid LAMB clip_value {clip_value}")
        self.beta1, self.beta2, self.eps, self.weight_decay = beta1, beta2, eps, weight_decay
        self.correction, self.clip_value = correction, tuple(clip_value)

    def step_inputs(self):
        t = self.step_count + 1
        scalars = {"lr": self.learning_rate}
        if self.correction:
            scalars["mean_scale"] = 1.0 / (1.0 - self.beta1 ** t)
            scalars["variance_scale"] = 1.0 / (1.0 - self.beta2 ** t)
        return scalars

    def update(self, parameter, gradient, scalars, state):
        mean = self.beta1 * state["mean"] + (1 - self.beta1) * gradient
        variance = self.beta2 * state["variance"] + (1 - self.beta2) * gradient * gradient
        m, v = (mean * scalars["mean_scale"], variance * scalars["variance_scale"]) if self.correction else \
            (mean, variance)
        ratio = m / (torch.sqrt(v) + self.eps)
        if self.weight_decay:
            ratio = ratio + self.weight_decay * parameter
        w_norm, r_norm = _norm(parameter), _norm(ratio)
        both = (w_norm > 0) & (r_norm > 0)
        trust = torch.where(both, w_norm / torch.where(both, r_norm, torch.ones_like(r_norm)),
                            torch.ones_like(w_norm))
        trust = torch.clamp(trust, self.clip_value[0], self.clip_value[1])
        return parameter - scalars["lr"] * trust * ratio, {"mean": mean, "variance": variance}


class LARS(Optimizer):
    """Momentum SGD with the layer-wise rate lars_coeff * |w| / (|g| + weight_decay |w| + epsilon) (1 where either
    norm is 0); the momentum buffer carries lr times that rate times the decayed gradient."""

    state_keys = ("momentum",)

    def __init__(self, learning_rate: float = 0.001, momentum: float = 0.9, nesterov: bool = False,
                 dampening: float = 0.0, weight_decay: float = 0.01, lars_coeff: float = 0.001, parameters=None,
                 device_params: bool = False, epsilon: float = 1e-8):
        super().__init__(learning_rate, parameters, device_params)
        if nesterov or dampening:
            # tt-buda's LARS takes them and leaves them out of its rule; refusing says so instead of ignoring them
            raise ValueError("LARS: nesterov and dampening are not part of the LARS update; leave them unset")
        self.momentum, self.weight_decay, self.lars_coeff, self.epsilon = momentum, weight_decay, lars_coeff, epsilon

    def update(self, parameter, gradient, scalars, state):
        w_norm, g_norm = _norm(parameter), _norm(gradient)
        both = (w_norm > 0) & (g_norm > 0)
        local = torch.where(both, self.lars_coeff * w_norm / (g_norm + self.weight_decay * w_norm + self.epsilon),
                            torch.ones_like(w_norm))
        if self.weight_decay:
            gradient = gradient + self.weight_decay * parameter
        momentum = self.momentum * state["momentum"] + scalars["lr"] * local * gradient
        return parameter - momentum, {"momentum": momentum}


OPTIMIZERS = {"sgd": SGD, "adam": Adam, "adamw": AdamW, "lamb": LAMB, "lars": LARS}
