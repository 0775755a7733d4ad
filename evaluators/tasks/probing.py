"""Probing (STEB Sec. 3.1, App. C.10): which linguistic features a frozen embedding encodes.

The tables come binned and split (``label_<f>``, ``split_<f>``; built by
:mod:`dataset_scripts.core.probing_columns`). One probe is trained per feature; the main
score is the mean test accuracy over features.

Probe under protocol ``steb`` (default): the STEB authors' ``steb/tasks/probing.py``
(GitHub ``rrivera1849/STEB``; facts only, after SentEval): ``nn.Linear(dim, classes)``
followed by a sigmoid, trained with ``F.cross_entropy`` on the sigmoid outputs, Adam
(lr 0.01) with weight decay lambda in {1e-5, 1e-4, 1e-3, 1e-2}, batches of 512 in table
order (no shuffle), float32, at most 200 epochs; after each epoch the validation accuracy
(argmax of the sigmoid outputs) is computed and the weights kept when it strictly
improves, training stopping at the 6th epoch without improvement (their "tenacity" 5;
the count is never reset). The lambda with the best validation accuracy (the first on
ties) gives the test accuracy. The classes are the distinct train labels. ``torch``'s
global generator is seeded once per evaluation (the evaluator's seed, 42, as their
``set_seed(42)``) and each ``nn.Linear`` draws its initial weights from it, feature by
feature, lambda by lambda, and each pass of their ``DataLoader`` over a split draws one
int64 from it too (torch's loader does so for its worker base seed), which we repeat; we
run it in a forked generator, with deterministic
algorithms and one CPU thread, so the process' own state is left as it was.

Probe under ``steb-strict`` (or ``ProbingEvaluator(probe="sklearn")``): scikit-learn's
multinomial ``LogisticRegression`` at its optimum, with ``C = 1 / (lambda n_train)`` (the
same L2 strength on the mean loss) chosen on validation from the same lambdas: no
initialisation, batch order or early stopping in the result.

``details["probe"]`` names the probe; ``details["l2_strength"]`` the chosen lambda per
feature. ``details["ci95"]`` records a 95 % percentile bootstrap CI of the mean accuracy
(1,000 resamples, the evaluator's seed): in each replicate the test texts of every
feature are resampled with replacement (independently per feature), the feature's
accuracy of the *fixed* trained probe is recomputed, and the accuracies are averaged
over features. The probes are not retrained, so the interval covers the test sample only.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.schemas import PROBING, probing_features
from evaluators.data import Table
from evaluators.metric_math.resampling import generator, multinomial_counts
from evaluators.records.items import make_items
from evaluators.tasks.base import (
    CI_N_BOOT,
    DEFAULT_SEED,
    EmbeddingLookup,
    TaskEvaluator,
    ci_record,
)
from evaluators.tasks.facts import TASK_FACTS

L2_STRENGTHS = (1e-5, 1e-4, 1e-3, 1e-2)
LEARNING_RATE = 0.01
MAX_EPOCHS = 200
TENACITY = 5
BATCH_SIZE = 512
PROBES = ("torch", "sklearn")


def torch_probe(
    vectors: np.ndarray,
    labels: np.ndarray,
    splits: np.ndarray,
    n_classes: int,
) -> tuple[np.ndarray, float, int]:
    """The authors' linear + sigmoid probe on one feature (see the module docstring), run
    on ``torch``'s current global generator: whether each test text is classified
    correctly, the chosen weight decay and the epochs it trained."""
    import torch

    x = torch.from_numpy(np.ascontiguousarray(vectors, dtype=np.float32))
    y = torch.from_numpy(np.ascontiguousarray(labels, dtype=np.int64))
    parts = {}
    for name in ("train", "validation", "test"):
        index = torch.from_numpy(np.flatnonzero(splits == name))
        xs, ys = x[index], y[index]
        parts[name] = [
            (xs[i : i + BATCH_SIZE], ys[i : i + BATCH_SIZE]) for i in range(0, len(ys), BATCH_SIZE)
        ]

    def loader_draw() -> None:
        # their batches come from a DataLoader, whose every pass draws one int64 base seed
        # from the global generator (torch.utils.data.dataloader._BaseDataLoaderIter), and
        # that moves the next nn.Linear's initial weights: draw the same
        torch.empty((), dtype=torch.int64).random_()

    def predict(linear: torch.nn.Linear, batches: list) -> torch.Tensor:
        loader_draw()
        with torch.no_grad():
            return torch.cat([torch.sigmoid(linear(xb)).argmax(dim=1) == yb for xb, yb in batches])

    best: list[tuple[int, dict[str, torch.Tensor], int]] = []
    linear = None
    for strength in L2_STRENGTHS:
        linear = torch.nn.Linear(x.shape[1], n_classes)
        optimizer = torch.optim.Adam(linear.parameters(), lr=LEARNING_RATE, weight_decay=strength)
        best_hits, best_state, epochs, misses = -1, None, 0, 0
        for _ in range(MAX_EPOCHS):
            epochs += 1
            loader_draw()
            for xb, yb in parts["train"]:
                loss = torch.nn.functional.cross_entropy(torch.sigmoid(linear(xb)), yb)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            hits = int(predict(linear, parts["validation"]).sum())
            if hits > best_hits:  # equal validation sets: counts order as accuracies
                best_hits = hits
                best_state = {k: v.detach().clone() for k, v in linear.state_dict().items()}
            else:
                misses += 1
                if misses > TENACITY:
                    break
        assert best_state is not None
        best.append((best_hits, best_state, epochs))
    chosen = int(np.argmax([hits for hits, _, _ in best]))
    assert linear is not None
    linear.load_state_dict(best[chosen][1])
    correct = predict(linear, parts["test"]).numpy()
    return correct, L2_STRENGTHS[chosen], best[chosen][2]


def sklearn_probe(
    vectors: np.ndarray, labels: np.ndarray, splits: np.ndarray, seed: int
) -> tuple[np.ndarray, float]:
    """Logistic regression at its optimum, ``C = 1/(lambda n_train)`` chosen on
    validation: whether each test text is classified correctly, and the chosen lambda."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    train, val, test = (splits == s for s in ("train", "validation", "test"))
    best = (-1.0, L2_STRENGTHS[0], None)
    for strength in L2_STRENGTHS:
        model = LogisticRegression(
            C=1.0 / (strength * train.sum()), max_iter=2000, random_state=seed
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(vectors[train], labels[train])
        score = float((model.predict(vectors[val]) == labels[val]).mean())
        if score > best[0]:
            best = (score, strength, model)
    model = best[2]
    assert model is not None
    return model.predict(vectors[test]) == labels[test], best[1]


def probing_ci(
    correct: dict[str, np.ndarray], seed: int = DEFAULT_SEED, n_boot: int = CI_N_BOOT
) -> dict[str, Any]:
    """``details["ci95"]`` of the mean probing accuracy from each feature's per-test-text
    correctness (resample test texts per feature, mean over features)."""
    rng = generator(seed)
    per_feature = []
    for hits in correct.values():
        hits = np.asarray(hits, dtype=np.float64)
        per_feature.append(multinomial_counts(len(hits), n_boot, rng) @ hits / len(hits))
    replicates = np.mean(per_feature, axis=0)
    method = "percentile bootstrap over test texts per feature (fixed probes), mean over features"
    n_units = sum(len(hits) for hits in correct.values())
    return ci_record("accuracy", replicates, "test texts", n_units, method, seed)


class ProbingEvaluator(TaskEvaluator):
    facts = TASK_FACTS[PROBING]
    description = (
        "linear+sigmoid probe per binned feature (Adam, weight decay chosen on validation); "
        "mean test accuracy"
    )

    def __init__(self, *args: Any, probe: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if probe is not None and probe not in PROBES:
            raise ValueError(f"unknown probe {probe!r}; known probes: {', '.join(PROBES)}")
        self.probe_kind = probe or ("torch" if self.protocol == "steb" else "sklearn")

    def texts(self, table: Table) -> list[str]:
        return [row["text"] for row in table.rows]

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        features = probing_features(list(table.rows[0]))
        if not features:
            raise ValueError(f"{table.source}: no label_<feature> columns to probe")
        vectors = embed(self.texts(table))
        columns = []
        for feature in features:
            keep = np.asarray(
                [
                    row[f"label_{feature}"] is not None and row[f"split_{feature}"] is not None
                    for row in table.rows
                ]
            )
            labels = np.asarray([row[f"label_{feature}"] for row in table.rows], dtype=object)[
                keep
            ].astype(int)
            splits = np.asarray([row[f"split_{feature}"] for row in table.rows], dtype=object)[keep]
            train = splits == "train"
            classes = np.unique(labels[train])
            if (
                len(classes) < 2
                or not np.array_equal(classes, np.arange(len(classes)))
                or not set(np.unique(labels)) <= set(classes)
                or not (splits == "validation").any()
                or not (splits == "test").any()
            ):
                raise ValueError(
                    f"{table.source}: probing feature {feature} needs two or more classes "
                    "numbered 0..k-1 in train (none elsewhere) and non-empty validation/test"
                )
            columns.append((feature, keep, labels, splits))
        chosen: dict[str, float] = {}
        correct: dict[str, np.ndarray] = {}
        epochs: dict[str, int] = {}
        if self.probe_kind == "torch":
            try:
                import torch
            except ImportError:
                raise DataError(
                    "the steb probing probe (the authors' torch linear layer) needs torch: "
                    "pip install 'stylebench[models]', or run with --protocol steb-strict "
                    "(scikit-learn probe)"
                ) from None

            threads, deterministic = (
                torch.get_num_threads(),
                torch.are_deterministic_algorithms_enabled(),
            )
            torch.set_num_threads(1)
            torch.use_deterministic_algorithms(True)
            try:
                with torch.random.fork_rng(devices=[]):
                    torch.manual_seed(self.seed)
                    for feature, keep, labels, splits in columns:
                        n_classes = len(np.unique(labels[splits == "train"]))
                        correct[feature], chosen[feature], epochs[feature] = torch_probe(
                            vectors[keep], labels, splits, n_classes
                        )
            finally:
                torch.set_num_threads(threads)
                torch.use_deterministic_algorithms(deterministic)
            probe = {
                "name": "torch linear + sigmoid, Adam lr 0.01 with weight decay (STEB code)",
                "batch_size": BATCH_SIZE,
                "max_epochs": MAX_EPOCHS,
                "tenacity": TENACITY,
                "epochs": epochs,
            }
        else:
            for feature, keep, labels, splits in columns:
                correct[feature], chosen[feature] = sklearn_probe(
                    vectors[keep].astype(np.float64), labels, splits, self.seed
                )
            probe = {"name": "scikit-learn LogisticRegression, C = 1/(lambda n_train)"}
        accuracies = {feature: float(hits.mean()) for feature, hits in correct.items()}
        metrics = {"accuracy": float(np.mean(list(accuracies.values())))}
        metrics.update({f"accuracy_{name}": value for name, value in accuracies.items()})
        counts = {"n_texts": len(table.rows), "n_features": len(features)}
        details = {
            "probe": probe,
            "l2_strength": chosen,
            "ci95": probing_ci(correct, self.seed),
            "items": make_items(
                "probing",
                "test texts",
                {f"correct_{feature}": (hits, "bits") for feature, hits in correct.items()},
            ),
        }
        return metrics, counts, details
