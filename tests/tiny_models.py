"""A one-layer random Llama with a word-level tokenizer: a causal LM for detector and
pooling tests that loads in well under a second (built by the test, nothing downloaded)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

# The word list of the tiny word-level tokenizers (tests/encoders, tests/training).
TINY_WORDS = [
    "the",
    "a",
    "cat",
    "dog",
    "sat",
    "ran",
    "on",
    "in",
    "mat",
    "park",
    ".",
    ",",
    "!",
    "?",
    "i",
    "you",
    "we",
    "they",
    "it",
    "is",
    "was",
    "very",
    "long",
    "short",
    "sentence",
    "text",
    "here",
    "there",
    "and",
    "but",
    "with",
    "of",
    "to",
    "this",
    "that",
    "small",
    "model",
    "tests",
    "padding",
    "left",
    "right",
    "token",
    "last",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
]


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


# -- tiny stand-ins for the STEB model families (random weights, built locally) -------


def _word_tokenizer(folder: Path, words: Iterable[str], max_length: int | None = None) -> int:
    """A word-level fast tokenizer ([UNK]=0, [PAD]=1, then ``words``) saved into ``folder``;
    returns the vocabulary size."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"[UNK]": 0, "[PAD]": 1}
    for word in words:
        vocab.setdefault(word, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    extra = {"model_max_length": max_length} if max_length else {}
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", **extra
    )
    fast.save_pretrained(folder)
    return len(vocab)


def write_tiny_bert(folder: Path, words: Iterable[str]) -> str:
    """A one-layer random BERT encoder (``config.json`` + weights + tokenizer): what a
    bare model path with a config.json looks like to the STEB routing."""
    import torch
    from transformers import BertConfig, BertModel

    vocab_size = _word_tokenizer(folder, words)
    cfg = BertConfig(
        vocab_size=vocab_size,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=48,
        pad_token_id=1,
    )
    torch.manual_seed(0)
    BertModel(cfg).save_pretrained(folder)
    return str(folder)


def write_tiny_neurobiber(folder: Path, words: Iterable[str], num_labels: int = 6) -> str:
    """A one-layer random RoBERTa multi-label classifier shaped like Neurobiber."""
    import torch
    from transformers import RobertaConfig, RobertaForSequenceClassification

    vocab_size = _word_tokenizer(folder, words, max_length=30)
    cfg = RobertaConfig(
        vocab_size=vocab_size,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=32,  # 30 usable positions (padding_idx 1)
        pad_token_id=1,
        num_labels=num_labels,
        problem_type="multi_label_classification",
    )
    torch.manual_seed(0)
    RobertaForSequenceClassification(cfg).save_pretrained(folder)
    return str(folder)


TINY_LUAR_CODE = '''"""A tiny LUAR-shaped model for tests: episode input (batch, texts, tokens)."""
import torch
from torch import nn
from transformers import PretrainedConfig, PreTrainedModel


class TinyLuarConfig(PretrainedConfig):
    model_type = "tiny-luar"

    def __init__(self, vocab_size=64, hidden_size=16, out_size=8, max_positions=512, **kw):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.out_size = out_size
        self.max_positions = max_positions
        super().__init__(**kw)


class TinyLuarModel(PreTrainedModel):
    config_class = TinyLuarConfig

    def __init__(self, config):
        super().__init__(config)
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.position = nn.Embedding(config.max_positions, config.hidden_size)
        self.mix = nn.Linear(config.hidden_size, config.hidden_size)
        self.score = nn.Linear(config.hidden_size, 1)
        self.out = nn.Linear(config.hidden_size, config.out_size)
        self.post_init()

    def _init_weights(self, module):
        pass

    def forward(self, input_ids, attention_mask):
        batch, texts, length = input_ids.shape
        ids = input_ids.reshape(batch * texts, length)
        mask = attention_mask.reshape(batch * texts, length).float()
        positions = torch.arange(length, device=ids.device)
        hidden = torch.tanh(self.mix(self.embed(ids) + self.position(positions)))
        pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1).clamp(min=1.0)[:, None]
        pooled = pooled.reshape(batch, texts, -1)
        weights = torch.softmax(self.score(pooled).squeeze(-1), dim=1)
        return self.out((weights[..., None] * pooled).sum(1))
'''


def write_tiny_luar(folder: Path, words: Iterable[str]) -> str:
    """A tiny model that, like LUAR, ships its own code (``auto_map`` to
    ``modeling_tinyluar.py``, loaded with ``trust_remote_code``) and reads episodes:
    masked mean over tokens per text, softmax attention over an episode's texts, linear."""
    import importlib.util

    import torch

    folder.mkdir(parents=True, exist_ok=True)
    vocab_size = _word_tokenizer(folder, words, max_length=512)
    code = folder / "modeling_tinyluar.py"
    code.write_text(TINY_LUAR_CODE)
    spec = importlib.util.spec_from_file_location(f"tinyluar_{abs(hash(folder))}", code)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cfg = module.TinyLuarConfig(vocab_size=vocab_size)
    cfg.auto_map = {
        "AutoConfig": "modeling_tinyluar.TinyLuarConfig",
        "AutoModel": "modeling_tinyluar.TinyLuarModel",
    }
    torch.manual_seed(0)
    model = module.TinyLuarModel(cfg)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.normal_(0.0, 0.5)
    model.save_pretrained(folder)
    return str(folder)


def write_tiny_lisa(
    folder: Path, tokenizer_folder: Path, words: Iterable[str], *, vector_embedder: bool = False
) -> tuple[str, str]:
    """A tiny LISA checkpoint (T5 encoder weights ``shared``/``encoder.*`` + a 768-way
    ``classifier``, ``linear_embedder.ckpt`` with ``embedder.weight`` (12 x 768) or a
    768-vector ``embedder``) and a word-level tokenizer in ``tokenizer_folder``. The
    vocabulary is t5-base's size (32,128) so the authors' BOS id 32100 exists."""
    import torch
    from transformers import T5Config, T5EncoderModel

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer_folder.mkdir(parents=True, exist_ok=True)
    _word_tokenizer(tokenizer_folder, words)
    cfg = T5Config(
        vocab_size=32128, d_model=8, d_kv=4, d_ff=16, num_layers=1, num_heads=2,
        pad_token_id=1,
    )  # fmt: skip
    torch.manual_seed(0)
    encoder = T5EncoderModel(cfg)
    state = {k: v for k, v in encoder.state_dict().items() if k != "encoder.embed_tokens.weight"}
    state["classifier.weight"] = torch.randn(768, 8)
    state["classifier.bias"] = torch.randn(768) * 0.5 + 0.5
    cfg.save_pretrained(folder)
    torch.save(state, folder / "pytorch_model.bin")
    if vector_embedder:
        embedder = {"embedder": torch.rand(768)}
    else:
        embedder = {"embedder.weight": torch.randn(12, 768)}
    torch.save({"state_dict": embedder, "epoch": 3}, folder / "linear_embedder.ckpt")
    return str(folder), str(tokenizer_folder)
