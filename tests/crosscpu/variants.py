"""The environments the cross-CPU check runs :mod:`tests.crosscpu.decisions` under, and a
runner that compares them (also usable by hand: ``python -m tests.crosscpu.variants``
prints which values differ between variants)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

#: OpenBLAS kernels forced with OPENBLAS_CORETYPE, and the CPU feature each needs
KERNELS = {"Prescott": None, "Haswell": "AVX2", "SkylakeX": "AVX512F"}
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def simd_targets() -> list[str]:
    """numpy's dispatched SIMD targets that this CPU runs: what NPY_DISABLE_CPU_FEATURES
    can switch off (naming a baseline feature is an error, an unknown one is ignored)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]


def variants() -> dict[str, dict[str, str | None]]:
    """Name -> environment changes (None = unset). ``default`` unsets OPENBLAS_CORETYPE
    (OpenBLAS picks the kernel for the CPU; some machines preset it)."""
    from numpy._core._multiarray_umath import __cpu_features__

    base: dict[str, str | None] = {"OPENBLAS_CORETYPE": None, "NPY_DISABLE_CPU_FEATURES": None}
    out = {"default": dict(base)}
    x86 = platform.machine().lower() in {"x86_64", "amd64", "i686", "x86"}
    for kernel, needs in KERNELS.items() if x86 else ():  # x86 OpenBLAS kernel names
        if needs is None or __cpu_features__.get(needs):
            out[f"OPENBLAS_CORETYPE={kernel}"] = base | {"OPENBLAS_CORETYPE": kernel}
    out["OPENBLAS_NUM_THREADS=1"] = base | dict.fromkeys(THREAD_VARS, "1")
    simd = simd_targets()
    if simd:
        out["NPY_DISABLE_CPU_FEATURES"] = base | {"NPY_DISABLE_CPU_FEATURES": " ".join(simd)}
    return out


def run_variant(
    name: str, changes: dict[str, str | None], tables: Path, out_dir: Path, root: Path
) -> dict[str, Any]:
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONWARNINGS"] = "ignore::ImportWarning"
    out = out_dir / f"{name.replace('=', '_')}.json"
    proc = subprocess.run(
        [sys.executable, "-m", "tests.crosscpu.decisions", str(tables), str(out)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"variant {name} failed (rc {proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(out.read_text())


def run_all(tables: Path, out_dir: Path, root: Path, workers: int = 2) -> dict[str, dict[str, Any]]:
    table = variants()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {
            n: pool.submit(run_variant, n, c, tables, out_dir, root) for n, c in table.items()
        }
        return {name: future.result() for name, future in futures.items()}


def differences(
    results: dict[str, dict[str, Any]], section: str = "values"
) -> dict[str, dict[str, str]]:
    """``{key: {variant: value}}`` for every key whose value is not the same everywhere."""
    keys = sorted({k for r in results.values() for k in r[section]})
    out = {}
    for key in keys:
        seen = {name: r[section].get(key, "missing") for name, r in results.items()}
        if len(set(seen.values())) > 1:
            out[key] = seen
    return out


def _describe(hex_value: str) -> str:
    try:
        return repr(float.fromhex(hex_value))
    except (TypeError, ValueError):
        return hex_value


if __name__ == "__main__":  # python -m tests.crosscpu.variants TABLES OUT_DIR [ROOT]
    root = Path(sys.argv[3]) if len(sys.argv) > 3 else Path.cwd()
    results = run_all(Path(sys.argv[1]), Path(sys.argv[2]), root)
    for name, result in results.items():
        print(name, json.dumps(result["runtime"]))
    for section in ("values", "authors_literal"):
        diff = differences(results, section)
        print(f"\n{section}: {len(diff)} of {len(results['default'][section])} differ")
        for key, seen in diff.items():
            print(f"  {key}: " + ", ".join(f"{n}={_describe(v)}" for n, v in seen.items()))
