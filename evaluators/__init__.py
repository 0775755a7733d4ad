"""stylebench evaluators: encoders, task evaluators, the embed-once runner and the CLI.

Heavy dependencies (torch, transformers, spaCy) are imported lazily by the encoders
that need them, so ``import evaluators`` stays fast and works with the core install.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
