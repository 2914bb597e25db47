"""pybuda.transformers.pipeline as the tt-buda demos use it: Hugging Face text generation with the causal LM on the
TT device (inputs padded to one length, logits cut back)."""

import copy

import pytest
import torch

import pybuda
from ttmlir.runtime.golden import pcc

transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")
from pybuda.transformers.pipeline import pipeline as pybuda_pipeline  # noqa: E402

pytestmark = pytest.mark.usefixtures("fresh_pybuda")

WORDS = ["<eos>", "<unk>"] + "my name is thomas and main thing the a of to in".split()


def tokenizer():
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    made = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<eos>", unk_token="<unk>")
    made.pad_token = made.eos_token
    return made


def gpt2():
    return transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=len(WORDS), n_positions=64, n_embd=32,
                                                               n_layer=1, n_head=2)).eval()


def test_text_generation_runs_the_model_on_the_device():
    model, tok = gpt2(), tokenizer()
    reference = copy.deepcopy(model)
    generator = pybuda_pipeline("text-generation", model=model, tokenizer=tok, pybuda_max_length=16)
    device = pybuda.pybudaglobal.get_tenstorrent_device()
    prompt = "my name is thomas"
    ids = tok(prompt, return_tensors="pt")["input_ids"]
    out = generator(prompt, max_new_tokens=3, do_sample=False, pad_token_id=tok.pad_token_id, return_tensors=True)
    generated = out[0]["generated_token_ids"]
    assert list(generated[:4]) == ids[0].tolist() and len(generated) == 4 + 3
    assert device.compiled and device.compiled[0].input_shapes[0] == [1, 16]  # compiled once, padded to 16
    with torch.no_grad():
        expected = reference(ids).logits
    assert pcc(expected, model.forward(input_ids=ids).logits) >= 0.99  # the padding masked out


@pytest.mark.parametrize("call, message", [
    (lambda m, t: pybuda_pipeline("text2text-generation", model=m, tokenizer=t), "text2text-generation"),
    (lambda m, t: pybuda_pipeline("text-generation", model=m, tokenizer=t, use_cache=True), "use_cache=True"),
])
def test_refusals(call, message):
    with pytest.raises(pybuda.PyBudaError, match=message):
        call(gpt2(), tokenizer())
