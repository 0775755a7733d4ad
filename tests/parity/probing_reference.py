"""An independent re-implementation of the STEB authors' probing pipeline, written from
reading their repository (GitHub ``rrivera1849/STEB``: ``scripts/probing/
create_probing_datasets.py``, ``scripts/probing/split_probing_datasets.py``,
``steb/tasks/probing.py``; facts only, no code copied). It imports nothing of stylebench.

Their two random draws are unseeded (``random.sample`` and numpy's global generator); here
they take ``random.Random(seed)`` and one ``numpy.random.RandomState(seed)``, the seeded
form of the same calls. Everything else is their procedure, with pandas and torch as they
use them: a ``DataFrame`` shuffled by ``sample(frac=1, random_state=seed)``, ``pd.qcut``,
``value_counts``, ``choice(replace=False)`` then ``shuffle``; the probe a ``torch``
``nn.Linear`` + sigmoid trained by ``DataLoader`` batches with ``optim.Adam``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

import numpy as np
import pandas as pd


def sample_texts(
    texts: Sequence[str],
    count_tokens: Callable[[str], int],
    seed: int = 42,
    num_samples: int = 40_000,
    min_words: int = 32,
) -> list[str]:
    """create_probing_datasets.py: strip, sample num_samples * 1.2 (all when fewer), keep
    texts of at least min_words tokens, the first num_samples of them."""
    dataset = [t.strip() for t in texts if isinstance(t, str)]
    size = min(len(dataset), num_samples + int(num_samples * 0.20))
    dataset = random.Random(seed).sample(dataset, size)
    return [t for t in dataset if count_tokens(t) >= min_words][:num_samples]


def split_features(
    frame: pd.DataFrame, seed: int = 42, num_bins: int = 5, total_data: int = 38_400
) -> pd.DataFrame:
    """split_probing_datasets.py: shuffle once, per feature column (every column but
    ``text``, in order) qcut into bins, balance by the smallest bin (capped), split."""
    df = frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    rs = np.random.RandomState(seed)
    features = [c for c in df.columns if c != "text"]
    for feat in features:
        df[f"label_{feat}"] = None
        df[f"split_{feat}"] = None
    for feat in features:
        _, bins = pd.qcut(df[feat], q=num_bins, duplicates="drop", retbins=True)
        num_labels = len(bins) - 1
        if num_labels < 1:  # theirs divides by zero here; the caller skips such features
            raise ZeroDivisionError(f"feature {feat} has no quantile bin")
        temp = pd.qcut(
            df[feat], q=num_bins, duplicates="drop", labels=[str(i) for i in range(num_labels)]
        )
        counts = temp.value_counts()
        n_sample = min([*counts.tolist(), total_data // num_labels])
        for label_val in counts.index:
            bin_indices = df[temp == label_val].index.to_numpy()
            kept = rs.choice(bin_indices, size=n_sample, replace=False)
            rs.shuffle(kept)
            train_end = int(0.8 * n_sample)
            val_end = train_end + int(0.1 * n_sample)
            df.loc[kept, f"label_{feat}"] = int(label_val)
            df.loc[kept[:train_end], f"split_{feat}"] = "train"
            df.loc[kept[train_end:val_end], f"split_{feat}"] = "val"
            df.loc[kept[val_end:], f"split_{feat}"] = "test"
    return df


def run_probe(
    embeddings: np.ndarray, labels: Sequence[Any], splits: Sequence[Any]
) -> tuple[float, int, int]:
    """steb/tasks/probing.py for one feature, on torch's current global generator:
    (test accuracy as count / n in float64, the float32 value their code returns is
    ``float(np.float32(...))`` of it up to rounding, and the test hit count, test size)."""
    import torch
    from torch import nn, optim
    from torch.utils.data import DataLoader, TensorDataset

    class Probe(nn.Module):
        def __init__(self, input_dim: int, output_dim: int) -> None:
            super().__init__()
            self.linear = nn.Linear(input_dim, output_dim)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.sigmoid(self.linear(x))

    groups: dict[str, tuple[list, list]] = {"train": ([], []), "val": ([], []), "test": ([], [])}
    for emb, label, split in zip(embeddings, labels, splits, strict=True):
        if label is None or split is None:
            continue
        groups[split][0].append(emb)
        groups[split][1].append(label)
    loaders = {}
    for name, (xs, ys) in groups.items():
        tx = torch.FloatTensor(np.array(xs))
        ty = torch.LongTensor(np.array(ys))
        loaders[name] = DataLoader(TensorDataset(tx, ty), batch_size=512, num_workers=0)
    train_y = np.array(groups["train"][1])
    input_dim, num_classes = len(groups["train"][0][0]), len(np.unique(train_y))

    regs = [10**t for t in range(-5, -1)]
    best_models: list[Any] = [None] * len(regs)
    best_scores = [float("-inf")] * len(regs)
    model = None
    for i, reg in enumerate(regs):
        model = Probe(input_dim, num_classes)
        optimizer = optim.Adam(model.parameters(), lr=0.01, weight_decay=reg)
        stops = 0
        for _ in range(200):
            model.train()
            for x, y in loaders["train"]:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            model.eval()
            with torch.no_grad():
                hits, n = 0.0, 0
                for x, y in loaders["val"]:
                    hits += torch.eq(model(x).argmax(dim=1), y).float().sum()
                    n += x.size(0)
                acc = hits / n
                if acc > best_scores[i]:
                    best_scores[i] = acc.item()
                    best_models[i] = deepcopy(model.state_dict())
                else:
                    stops += 1
                    if stops > 5:
                        break
    assert model is not None
    model.load_state_dict(best_models[int(np.argmax(best_scores))])
    model.eval()
    with torch.no_grad():
        hits_test, n_test = 0, 0
        for x, y in loaders["test"]:
            hits_test += int(torch.eq(model(x).argmax(dim=1), y).sum())
            n_test += x.size(0)
    return hits_test / n_test, hits_test, n_test


def probe_all(
    embeddings: np.ndarray, df: pd.DataFrame, features: Sequence[str], seed: int = 42
) -> dict[str, float]:
    """Their ProbingTask.evaluate after ``set_seed(seed)``: every feature in order, then
    ``average``."""
    import torch

    torch.manual_seed(seed)
    results = {
        feat: run_probe(embeddings, list(df[f"label_{feat}"]), list(df[f"split_{feat}"]))[0]
        for feat in features
    }
    results["average"] = float(np.mean(list(results.values())))
    return results
