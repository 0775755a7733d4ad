"""A running Ray cluster for drivers in other processes, as after ``ray start --head``.

``stylebench run --ray <address>`` is a separate driver that joins a cluster somebody
started. :class:`RayHead` starts a cluster of one or more nodes in a child process
(``python tests/scaling/ray_head.py <nodes> <cpus per node> <temp dir>``, which starts
them with ``ray.cluster_utils.Cluster``, Ray's way to run several nodes, each its own
raylet and object store, on one machine, and prints the cluster's address), so that a
driver started with :attr:`RayHead.env` can join it:

* loopback only: ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` makes Ray bind and announce
  127.0.0.1 (Ray's switch for one-machine clusters; nothing else listens);
* token authentication, as ``ray start`` enables by default (Ray 2.59+), with a
  throw-away token passed in the environment (nothing is written to ``~/.ray``);
* its own temporary directory (``RAY_TMPDIR``: also Ray's "current cluster" file),
  removed at the end;
* stopped by closing its stdin: the child shuts the nodes down, which stops every
  process of the cluster (``ray start --block`` stopped by a signal leaves its agents
  behind, and ``ray stop`` would stop every cluster of the machine).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from types import TracebackType

ADDRESS_LINE = "RAY_HEAD_ADDRESS "


def driver_env(token: str) -> dict[str, str]:
    """What a process needs in its environment to start or join the cluster (the
    cluster's own processes also get ``RAY_TMPDIR``, set by :class:`RayHead`)."""
    return {
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # loopback (read when ray is imported)
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": token,
        "RAY_USAGE_STATS_ENABLED": "0",
    }


class RayHead:
    """``with RayHead(num_cpus=2) as head:`` run drivers with ``env=head.env`` and
    ``--ray head.address``; the cluster stops when the block ends. ``nodes`` nodes of
    ``num_cpus`` CPUs each."""

    def __init__(self, num_cpus: int = 2, nodes: int = 1, start_timeout: float = 120.0) -> None:
        self.num_cpus = num_cpus
        self.nodes = nodes
        self.start_timeout = start_timeout
        self.env = driver_env(uuid.uuid4().hex)
        self.address = ""
        self.seconds_to_start = 0.0
        self._temp = ""
        self._process: subprocess.Popen[str] | None = None

    def __enter__(self) -> RayHead:
        # short: Ray's socket paths must stay under 108 bytes
        self._temp = tempfile.mkdtemp(prefix="sbhead")
        (Path(self._temp) / "ray").mkdir()  # where RAY_TMPDIR puts the address file
        started = time.perf_counter()
        self._process = subprocess.Popen(
            [sys.executable, __file__, str(self.nodes), str(self.num_cpus), self._temp],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, **self.env, "RAY_TMPDIR": self._temp},
        )
        assert self._process.stdout is not None
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            line = self._process.stdout.readline()
            if not line:  # the child ended without an address
                break
            if line.startswith(ADDRESS_LINE):
                self.address = line[len(ADDRESS_LINE) :].strip()
                self.seconds_to_start = time.perf_counter() - started
                return self
        self.__exit__(None, None, None)
        raise RuntimeError(f"the Ray head did not start within {self.start_timeout:.0f} s")

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        process = self._process
        if process is not None:
            try:
                assert process.stdin is not None
                process.stdin.close()  # the child shuts the cluster down and exits
                process.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        shutil.rmtree(self._temp, ignore_errors=True)


def _serve(nodes: int, num_cpus: int, temp_dir: str) -> None:
    """Child process: start the nodes, print the address, wait for stdin to close."""
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": num_cpus, "include_dashboard": False, "temp_dir": temp_dir},
    )
    for _ in range(nodes - 1):
        cluster.add_node(num_cpus=num_cpus, temp_dir=temp_dir)
    cluster.wait_for_nodes()
    print(ADDRESS_LINE + cluster.address, flush=True)
    sys.stdin.read()  # until the parent closes it
    cluster.shutdown()


if __name__ == "__main__":
    _serve(int(sys.argv[1]), int(sys.argv[2]), str(Path(sys.argv[3])))
