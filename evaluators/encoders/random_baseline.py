"""The random floor (``random``): a seeded standard-normal vector per text.

STEB's ``RandomModel`` draws ``np.random.randn(n_episodes, 384)`` (float32) from numpy's
global generator, seeded once per run with ``transformers.set_seed(42)``: one fresh
vector per episode, so its exact numbers depend on the order in which the run asks for
episodes. We draw the same distribution (i.i.d. N(0, 1), dim 384, float32) but key every
vector by the SHA-256 of its text (or of its episode's texts) and the seed, so a text gets
the same vector in every run and process and the embed-once cache stays valid. The
paper's random row is one draw of this distribution; it cannot be reproduced number for
number by any other embedding order, and nothing else is expected of a floor.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder

STEB_RANDOM_DIM = 384
"""Dimension of STEB's random baseline (``RandomModel.embedding_dim``)."""


class RandomEncoder(BaseEncoder):
    """A seeded standard-normal vector per text, keyed by the text's SHA-256.

    Same text and seed, same vector, across processes; different texts are
    independent. A floor for every task: a model that does not beat it has learned
    nothing usable. An episode (several texts) gets ONE vector drawn from its texts'
    joint key, as STEB's random model draws one vector per episode.
    """

    name = "random"
    episode_pooling = "model"

    def __init__(self, *, dim: int = STEB_RANDOM_DIM, seed: int = 0) -> None:
        if dim < 1:
            raise StylebenchError(f"random encoder dim must be >= 1, not {dim}")
        self.dim = int(dim)
        self.seed = int(seed)

    def identity(self) -> dict[str, Any]:
        return {"kind": "random", "dim": self.dim, "seed": self.seed}

    def _vector(self, key: bytes) -> np.ndarray:
        digest = hashlib.sha256(f"{self.seed}\0".encode() + key).digest()
        rng = np.random.default_rng(int.from_bytes(digest[:16], "little"))
        return rng.standard_normal(self.dim)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        output = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            output[row] = self._vector(text.encode())
        return output

    def encode_episodes(self, episodes: Sequence[Sequence[str]]) -> np.ndarray:
        output = np.empty((len(episodes), self.dim), dtype=np.float32)
        for row, episode in enumerate(episodes):
            if len(episode) == 1:  # an episode of one text is that text
                output[row] = self._vector(episode[0].encode())
            else:
                joint = b"\0episode\0" + b"\0".join(
                    hashlib.sha256(t.encode()).digest() for t in episode
                )
                output[row] = self._vector(joint)
        return output
