"""A one-layer random Llama with a word-level tokenizer: a causal LM for detector and
pooling tests that loads in well under a second (built by the test, nothing downloaded)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def write_tiny_llama(folder: Path, words: Iterable[str], max_positions: int = 128) -> str:
    """Save the model and its tokenizer (vocabulary: [UNK], [PAD], then ``words`` in the
    order given) into ``folder``; returns the folder as a string (a model path)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    vocab = {"[UNK]": 0, "[PAD]": 1} | {w: i + 2 for i, w in enumerate(words)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]")
    fast.save_pretrained(folder)
    cfg = LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        max_position_embeddings=max_positions,
    )
    torch.manual_seed(0)
    LlamaForCausalLM(cfg).save_pretrained(folder)
    return str(folder)
