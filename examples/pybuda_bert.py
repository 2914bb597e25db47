"""Seed 003's PyBuda quick start, with the BERT model built from its config (nothing is downloaded).

    python examples/pybuda_bert.py
"""

import torch
from transformers import BertConfig, BertModel

import pybuda

# A small BERT built from its config instead of BertModel.from_pretrained("bert-base-uncased")
model = BertModel(BertConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512))

# Wrap the pytorch model in a PyBuda module wrapper
module = pybuda.PyTorchModule("bert_encoder", model.encoder)

# Create a tenstorrent device (the simulated Wormhole B0 n150)
tt0 = pybuda.TTDevice(
    "tt0",
    module=module,
    arch=pybuda.BackendDevice.Wormhole_B0,
    devtype=pybuda.BackendType.Silicon,
)

# Create an input tensor
seq_len = 128
input = torch.randn(1, seq_len, model.config.hidden_size)

# Compile and run inference
output_queue = pybuda.run_inference(inputs=[input])
print(output_queue.get())

# Where each op ran, the memory per DRAM channel and the modelled time per op
print(tt0.report())
