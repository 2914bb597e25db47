"""`pipeline(task, model=..., tokenizer=...)`: a Hugging Face text-generation pipeline whose causal LM runs on the
TT device.

Each forward the generation loop makes gets its token ids padded (with the pad token, masked out) to one length,
`pybuda_max_length`, so the model compiles once for that shape; the device's logits are cut back to the real length.
No KV cache is carried between steps: every step runs the whole sequence (`use_cache=True` is refused)."""

from __future__ import annotations

import torch
import transformers
from transformers.modeling_outputs import CausalLMOutputWithPast

from pybuda.config import PyBudaError
from pybuda.device import TTDevice
from pybuda.module import PyTorchModule
from pybuda._C import DataFormat
from pybuda.run import run_inference

TASKS = ("text-generation",)
DEFAULT_MAX_LENGTH = 256  # tt-buda's: a whole number of tiles longer than most prompts and their continuations


class _Logits(torch.nn.Module):
    """The model's own forward (not the generation loop's replacement) on padded ids and mask: the logits."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask):
        out = type(self.model).forward(self.model, input_ids=input_ids, attention_mask=attention_mask,
                                       use_cache=False, return_dict=True)
        return out.logits


class DeviceForward:
    """Stands in for `model.forward` while the pipeline generates: pads, runs on the device (or `forward_fn`),
    returns the logits of the real positions."""

    def __init__(self, model, tokenizer, max_length: int, forward_fn=None,
                 fp32_fallback: DataFormat = DataFormat.Float16_b):
        if tokenizer is None or tokenizer.pad_token_id is None:
            raise PyBudaError("pybuda.transformers.pipeline needs a tokenizer with a pad token (padding to "
                              "pybuda_max_length); set tokenizer.pad_token")
        self.pad, self.max_length, self.forward_fn = tokenizer.pad_token_id, max_length, forward_fn
        if forward_fn is None:
            name = type(model).__name__
            self.device = TTDevice(f"tt_{name}", module=PyTorchModule(name, _Logits(model)),
                                   fp32_fallback=fp32_fallback)

    def __call__(self, input_ids=None, attention_mask=None, position_ids=None, token_type_ids=None, **kwargs):
        if input_ids is None:
            raise PyBudaError("pybuda.transformers.pipeline: the model is called without input_ids")
        count = input_ids.shape[-1]
        if count > self.max_length:
            raise PyBudaError(f"pybuda.transformers.pipeline: {count} tokens, more than pybuda_max_length "
                              f"{self.max_length}")
        if position_ids is not None and not torch.equal(position_ids, torch.arange(count).expand_as(position_ids)):
            raise PyBudaError("pybuda.transformers.pipeline: left-padded prompts (position ids not 0..n-1) are not "
                              "supported; pad on the right")
        if token_type_ids is not None and token_type_ids.any():
            raise PyBudaError("pybuda.transformers.pipeline: token_type_ids are not passed to the device")
        if kwargs.get("past_key_values") is not None and len(kwargs["past_key_values"]):
            raise PyBudaError("pybuda.transformers.pipeline: a KV cache is not carried between device runs")
        pad = self.max_length - count
        ids = torch.nn.functional.pad(input_ids, (0, pad), value=self.pad)
        mask = torch.ones_like(input_ids) if attention_mask is None else attention_mask.to(input_ids.dtype)
        mask = torch.nn.functional.pad(mask, (0, pad), value=0)
        if self.forward_fn is not None:
            logits = self.forward_fn((ids, mask))
        else:
            self.device.push_to_inputs((ids, mask))
            logits = run_inference().get()[0].value()
        return CausalLMOutputWithPast(logits=logits[:, :count].float())


class NLPPipelineWrapper:
    """tt-buda's other way in: `model.prepare_inputs_for_generation = wrapper.prepare_inputs_for_generation`, then
    `model.generate(...)` runs each step's forward on the TT device (padded to `max_length`, no KV cache)."""

    def __init__(self, model, tokenizer, name: str = "pb_model", use_cache: bool | None = None,
                 fp32_fallback: DataFormat = DataFormat.Float16_b, forward_fn=None, max_length: int | None = None):
        if use_cache:
            raise PyBudaError("NLPPipelineWrapper(use_cache=True) is not supported: each step runs the whole "
                              "sequence on the device")
        self.model = model.eval()
        self.model.generation_config.use_cache = False
        self.device_forward = DeviceForward(model, tokenizer, max_length or DEFAULT_MAX_LENGTH, forward_fn,
                                            fp32_fallback)

    def prepare_inputs_for_generation(self, input_ids, attention_mask=None, **kwargs) -> dict:
        """The step's model inputs; from the first step on, the model's forward is the device's."""
        self.model.forward = self.device_forward
        # the rest of generate's step state (cache positions, use_cache) has no place on the device; a KV cache
        # is passed on for the device forward to refuse
        return {"input_ids": input_ids, "attention_mask": attention_mask,
                "past_key_values": kwargs.get("past_key_values")}


def pipeline(pipeline_type: str, *args, model=None, tokenizer=None, pybuda_max_length: int | None = None,
             forward_fn=None, use_cache: bool | None = None, **kwargs):
    """transformers.pipeline(pipeline_type, ...) with the model's forward on the TT device. `model` is a causal LM
    (or a checkpoint name); `forward_fn((ids, mask)) -> logits` runs instead of the device if given."""
    if pipeline_type not in TASKS:
        raise PyBudaError(f"pybuda.transformers.pipeline('{pipeline_type}') is not supported; supported: "
                          f"{', '.join(TASKS)}")
    if use_cache:
        raise PyBudaError("pybuda.transformers.pipeline(use_cache=True) is not supported: each step runs the whole "
                          "sequence on the device")
    if isinstance(model, str):
        name = model
        model = transformers.AutoModelForCausalLM.from_pretrained(name)
        tokenizer = tokenizer if tokenizer is not None else transformers.AutoTokenizer.from_pretrained(name)
    if not isinstance(model, torch.nn.Module):
        raise PyBudaError(f"pybuda.transformers.pipeline: model must be a torch module or a checkpoint name, not "
                          f"{type(model).__name__}")
    model.eval()
    model.generation_config.use_cache = False
    model.forward = DeviceForward(model, tokenizer, pybuda_max_length or DEFAULT_MAX_LENGTH, forward_fn)
    return transformers.pipeline(pipeline_type, *args, model=model, tokenizer=tokenizer, **kwargs)
