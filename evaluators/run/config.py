"""Every setting of a run in one value, :class:`RunConfig`: the one currency of a run.
``stylebench run`` builds it from its options, the Python API from its arguments, the
Space and the demo from theirs; :mod:`evaluators.run.service` plans and prepares with it,
the :class:`~evaluators.run.runner.Runner` runs with it, and a Ray task receives it whole
(:meth:`RunConfig.as_plain` / :meth:`RunConfig.from_plain`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from evaluators.tasks import DEFAULT_SEED
from evaluators.tasks.episodes import DEFAULT_SAMPLING, Sampling
from evaluators.tasks.protocol import DEFAULT_PROTOCOL

COMMIT_EVERY = 256  # texts per cache transaction (the most a killed run can lose)


@dataclass(frozen=True)
class RunConfig:
    """Every setting of a run. ``batch_size`` is the encoder's (texts per forward pass;
    None: the encoder's default); ``commit_every`` the texts per cache transaction (not
    a batch size: the Runner hands the encoder that many texts at a time and commits
    their vectors together); ``devices`` several devices of one model (``--devices``)."""

    seed: int = DEFAULT_SEED
    protocol: str = DEFAULT_PROTOCOL
    sampling: Sampling = DEFAULT_SAMPLING
    submetrics: Mapping[str, Sequence[str]] = field(default_factory=dict)
    tasks: tuple[str, ...] | None = None
    chunk: bool | str = False  # True: spaCy sentence boundaries; "regex": the fast splitter
    batch_size: int | None = None
    device: str | None = None
    devices: tuple[str, ...] | None = None
    fit_corpus: Path | None = None
    cache_dir: Path | None = None
    out_dir: Path | None = None
    resume: bool = False
    progress: bool = True
    commit_every: int = COMMIT_EVERY
    backend: str | None = None  # onnx, openvino, torch (None: torch); st:/hf: encoders
    precision: str | None = None  # fp32, fp16, bf16, int8 (None: fp32)
    token_budget: int | str | None = None  # padded tokens per batch, or "auto"

    def encoder_settings(self) -> dict[str, Any]:
        """The keyword arguments of :func:`evaluators.encoders.get_encoder` for a name."""
        settings: dict[str, Any] = {"chunk": self.chunk, "device": self.device}
        if self.batch_size is not None:
            settings["batch_size"] = self.batch_size
        if self.devices:
            settings["devices"] = list(self.devices)
        fast = {
            "backend": self.backend,
            "precision": self.precision,
            "token_budget": self.token_budget,
        }
        settings |= {key: value for key, value in fast.items() if value is not None}
        if (self.backend or self.precision) and self.protocol == "steb":
            settings["strict"] = True  # a backend beyond the tolerance is refused
        return settings

    def as_plain(self) -> dict[str, Any]:
        """Every field, as values whose unpickling imports nothing of stylebench (so a
        Ray worker sets its environment before its first stylebench import):
        ``sampling`` as :meth:`Sampling.requested`, the rest as they are (str, int,
        bool, None, tuples, dicts, :class:`~pathlib.Path`). :meth:`from_plain` inverts it."""
        plain = {f.name: getattr(self, f.name) for f in fields(self)}
        plain["sampling"] = self.sampling.requested()
        plain["submetrics"] = {name: list(c) for name, c in self.submetrics.items()}
        return plain

    @classmethod
    def from_plain(cls, plain: Mapping[str, Any]) -> RunConfig:
        """The config :meth:`as_plain` wrote; a missing or unknown field is an error."""
        names = {f.name for f in fields(cls)}
        if set(plain) != names:
            missing, unknown = sorted(names - set(plain)), sorted(set(plain) - names)
            raise ValueError(f"not a whole RunConfig: missing {missing}, unknown {unknown}")
        return cls(**{**plain, "sampling": Sampling(**plain["sampling"])})
