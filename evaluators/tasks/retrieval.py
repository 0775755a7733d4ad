"""Authorship retrieval (STEB Sec. 3.1, App. C.9): each query and each target is one
or more documents by one author, represented by the mean of its documents' vectors
(as the STEB authors do for neural models); targets are ranked by cosine distance;
a target is relevant when it has the query's author. MRR is the main score.

Protocol (the STEB authors' code, ``steb``): only authors present on both sides are
kept (queries without a target *and targets without a query* are dropped, and counted);
each query's score averages over every matching target (``1/rank``, rank, and the share
of its matches within the top k, for k in 1, 8, 16, 32, 64, 128, also k >= the number
of targets); ranks are positions in a stable ``numpy.argsort`` of the float32 cosine
distances (exact gridded cosines, :mod:`evaluators.metric_math.grid`: the same ranks on
every CPU; exact ties keep target order).
``steb-strict`` ranks ties pessimistically instead.

``details["ci95"]``: percentile bootstrap over queries of the MRR (1,000 resamples).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dataset_scripts.core.schemas import RETRIEVAL
from evaluators.data import Table
from evaluators.metric_math.grid import fixed_mean, grid_cosines
from evaluators.metric_math.retrieval import all_match_scores
from evaluators.records.items import MAX_ITEMS, make_items
from evaluators.tasks.base import (
    EmbeddingLookup,
    TaskEvaluator,
    mean_ci,
    unit_histogram,
)
from evaluators.tasks.episodes import ALL, Episodes, Sampling, form_episodes
from evaluators.tasks.facts import TASK_FACTS

STEB_RECALL_KS = (1, 8, 16, 32, 64, 128)


class RetrievalEvaluator(TaskEvaluator):
    facts = TASK_FACTS[RETRIEVAL]
    description = "mean-pooled author documents, cosine ranking; MRR, recall@k, mean rank"

    episodes = "k_or_all"
    class_column = "author"

    def effective_sampling(self) -> Sampling:
        """The sampling retrieval runs with: an episode size left unset (no per-class
        count either) is the authors' retrieval default -1 (``TASK_DEFAULTS``: every
        document of an (author, role) in one query or target; PAN18 English: 50 queries,
        not 209); ``--episode-size 1`` keeps every row as built."""
        if self.sampling.episode_size is None and self.sampling.per_class is None:
            return Sampling(ALL)
        return self.sampling

    def _episodes(self, table: Table) -> tuple[list[str], Episodes] | None:
        """Documents of every (role, author) in row order and their episodes, or None
        (every row is one query or target: episode size 1)."""
        sampling = self.effective_sampling()
        if sampling.is_default:
            return None
        docs, keys = [], []
        for row in table.rows:
            for text in row["texts"]:
                docs.append(text)
                keys.append(f"{row['role']}:{row['author']}")
        episodes = form_episodes(keys, sampling, "role:author side")
        if sampling is not self.sampling:
            episodes.record["episode_size_default"] = (
                "-1: the STEB authors' retrieval default (TASK_DEFAULTS), every document of "
                "an (author, role) pooled into one query or target; --episode-size 1 keeps "
                "the rows as built"
            )
        return docs, episodes

    def texts(self, table: Table) -> list[str]:
        formed = self._episodes(table)
        if formed is None:
            return [t for row in table.rows for t in row["texts"]]
        docs, episodes = formed
        return [docs[i] for i in episodes.used]

    def episode_groups(self, table: Table) -> list[tuple[str, ...]]:
        formed = self._episodes(table)
        if formed is None:
            return []
        docs, episodes = formed
        return [tuple(docs[i] for i in m) for m in episodes.members]

    def _pooled(self, rows: list[dict[str, Any]], embed: EmbeddingLookup) -> np.ndarray:
        vectors = embed(t for row in rows for t in row["texts"])
        owner = np.repeat(np.arange(len(rows)), [len(row["texts"]) for row in rows])
        sums = np.zeros((len(rows), vectors.shape[1]), dtype=np.float64)
        np.add.at(sums, owner, vectors)
        return sums / np.bincount(owner)[:, None]

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        formed = self._episodes(table)
        if formed is None:
            samples = [(r["role"], r["author"]) for r in table.rows]
        else:
            samples = [tuple(str(label).split(":", 1)) for label in formed[1].labels]
        query_authors = {a for role, a in samples if role == "query"}
        target_authors = {a for role, a in samples if role == "target"}
        common = query_authors & target_authors
        keep_q = [i for i, (role, a) in enumerate(samples) if role == "query" and a in common]
        keep_t = [i for i, (role, a) in enumerate(samples) if role == "target" and a in common]
        if not keep_q:
            raise ValueError(f"{table.source}: no author has both a query and a target")
        queries = [{"author": samples[i][1]} for i in keep_q]
        targets = [{"author": samples[i][1]} for i in keep_t]
        if formed is None:
            q_vec = self._pooled([table.rows[i] for i in keep_q], embed)
            t_vec = self._pooled([table.rows[i] for i in keep_t], embed)
        else:
            docs, episodes = formed
            q_vec, t_vec = (
                embed.pool(
                    [tuple(docs[j] for j in episodes.members[i]) for i in keep],
                    dtype=np.float64,
                )
                for keep in (keep_q, keep_t)
            )
        # cosine distance as float32 (as sklearn's in the authors' code) from the exact
        # gridded cosines: the same distances, ties and ranks on every CPU (issue 25)
        distances = (1.0 - grid_cosines(q_vec, t_vec)).astype(np.float32)
        relevance = (
            np.asarray([row["author"] for row in queries])[:, None]
            == np.asarray([row["author"] for row in targets])[None, :]
        )
        ties = "sort" if self.protocol == "steb" else "pessimistic"
        per_query = all_match_scores(distances, relevance, ks=STEB_RECALL_KS, ties=ties)
        metrics = {name: fixed_mean(values) for name, values in per_query.items()}
        n_queries_total = sum(1 for role, _ in samples if role == "query")
        n_targets_total = sum(1 for role, _ in samples if role == "target")
        counts = {
            "n_queries": len(queries),
            "n_targets": len(targets),
            "n_queries_without_target": n_queries_total - len(queries),
            "n_targets_without_query": n_targets_total - len(targets),
            "n_documents": sum(len(row["texts"]) for row in table.rows),
        }
        units = {name: unit_histogram(values) for name, values in per_query.items()}
        ci = mean_ci("mrr", per_query["mrr"], "queries", self.seed)
        details: dict[str, Any] = {"units": units, "ci95": ci}
        # the independent units of a comparison are the authors (a query and the targets
        # of its author; every target enters every query's rank): per relevant (query,
        # target) row its rank and each author's targets ahead of it, for the exact
        # delete-one-author jackknife (evaluators.metric_math.retrieval_jackknife)
        from evaluators.metric_math.retrieval_jackknife import author_groups, author_rank_table

        authors = {a: k for k, a in enumerate(sorted(common))}
        if formed is None:
            own_texts = [table.rows[i]["texts"] for i in range(len(samples))]
        else:
            own_texts = [[formed[0][j] for j in m] for m in formed[1].members]
        groups = author_groups([a for _, a in samples], own_texts)
        arrays: dict[str, tuple[Any, str]] = {
            name: (values, "f8") for name, values in per_query.items()
        }
        query_author = [authors[q["author"]] for q in queries]
        target_author = [authors[t["author"]] for t in targets]
        arrays["query_author"] = (query_author, "i4")
        arrays["target_author"] = (target_author, "i4")
        # authors sharing a text (one person under several labels) are one unit
        in_common = sorted(common)
        group_codes: dict[int, int] = {}
        author_group = [group_codes.setdefault(groups[a], len(group_codes)) for a in in_common]
        arrays["author_group"] = (author_group, "i4")
        n_rows = int(relevance.sum())
        if n_rows * len(authors) <= MAX_ITEMS:
            match_query, match_rank, ahead = author_rank_table(
                distances, relevance, np.asarray(target_author), len(authors), ties
            )
            arrays["match_query"] = (match_query, "i4")
            arrays["match_rank"] = (match_rank, "i4")
            arrays["ahead_by_author"] = (ahead.ravel(), "i4")
        else:
            details["items_units_omitted"] = (
                f"{n_rows} relevant (query, target) rows x {len(authors)} authors exceed "
                f"the budget of {MAX_ITEMS}: no per-author ranks, so no comparison"
            )
        details["items"] = make_items("mean", "queries", arrays, n=len(queries))
        if formed is not None:
            counts["n_documents_used"] = int(formed[1].used.size)
            details["sampling"] = formed[1].record
        return metrics, counts, details
