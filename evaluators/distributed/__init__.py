"""Spreading a benchmark run over machines: :mod:`.ray_runner` (one Ray task per
(model, dataset)). Ray is optional (``pip install 'stylebench[ray]'``); nothing else
imports it."""

from evaluators.distributed.ray_runner import Job, plan_jobs, run_on_ray

__all__ = ["Job", "plan_jobs", "run_on_ray"]
