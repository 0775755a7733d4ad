"""Every documented route, for every entry of the encoder table (issue 25).

The README documents five ways to evaluate an encoder: ``stylebench run`` on a built STEB
dataset, ``stylebench run`` on a ``stylebench build --from`` dataset, the Python API
``evaluators.api.evaluate``, ``stylebench run --ray`` and the Space's ``/run_embedding``
endpoint. Each row of :mod:`evaluators.encoders.table` (built-in names and spec prefixes)
goes through the routes that apply to it, as a user types it: the CLI's real entry point
(``evaluators.cli.main``, plus one run of the installed ``stylebench`` script), the public
API function, the Space handler behind the endpoint. Heavy model families run as tiny
random-weight stand-ins of the same architecture (``tests/tiny_models.py``), and a model
that a user downloads from the Hub (Neurobiber, LISA's t5-base tokenizer) is placed in a
private Hugging Face cache in the Hub's own layout, so the built-in name resolves exactly
as after ``huggingface-cli download``. A served model is a loopback stub speaking the
OpenAI embeddings API.

Besides "it runs", each route must give the numbers the CLI gives for the same encoder and
data (the API and the Space are other doors to the same Runner; Ray runs the same jobs).

Data: a STEB release built from a PAN23 download we wrote (``tests/hub/pan23_fixture.py``;
three configs of predefined pairs) and a ``build --from`` CSV of three "authors"
(clustering + all-to-all pairs). Ray: function-words and tfidf-ngrams only (the cluster
start costs about 10 s; the route is the same for every encoder, and TF-IDF is the one
that is fitted in the driver and shipped).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from evaluators.encoders.model_ids import NEUROBIBER_ID
from evaluators.encoders.table import BUILTIN_ENCODERS, PREFIXES
from tests.hub.pan23_fixture import AUTHOR_A, AUTHOR_B, write_pan23

STEB_REPO = "steb/pan23_style_change"
STEB_FOLDER = "steb__pan23_style_change"
FROM_FOLDER = "mine"
AUTHORS = {
    "ann": "she walked softly to the garden and poured the tea ; quietly reading her letter",
    "bob": "he drove the loud truck hard down the road ; the engine was fast and it was late",
    "cyd": "we saw the market price rise ; our shares fell in the quarter and profit was thin",
}
TEXTS_PER_AUTHOR = 6


# ---------------------------------------------------------------------------- data


def _from_rows() -> list[tuple[str, str]]:
    rows = []
    for author, sentence in AUTHORS.items():
        words = sentence.split()
        for i in range(TEXTS_PER_AUTHOR):  # rotations of one sentence: same words, new text
            rows.append((author, " ".join(words[i:] + words[:i])))
    return rows


def _vocabulary() -> list[str]:
    texts = [t for _, t in _from_rows()] + list(AUTHOR_A) + list(AUTHOR_B)
    return sorted({w for t in texts for w in re.findall(r"\w+|[^\w\s]", t)})


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``stylebench <argv>`` through the console script's function; its stdout."""
    from evaluators.cli import main

    capsys.readouterr()
    try:
        main(argv)
    except SystemExit as stop:  # main() exits only on errors
        err = capsys.readouterr().err
        message = f"`stylebench {' '.join(argv)}` exited {stop.code}: {err[-1500:]}"
        raise AssertionError(message) from None
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's working folder holding ``built/`` as ``stylebench build`` writes it."""
    return tmp_path_factory.mktemp("user")


@pytest.fixture(scope="module")
def datasets(root: Path) -> dict[str, Path]:
    """``{"steb": the built STEB release, "from": the build --from folder}``."""
    from evaluators.cli import main

    write_pan23(root / "raw")
    main(
        ["build", STEB_REPO, "--raw", str(root / "raw"), "--out", str(root / "built" / STEB_FOLDER)]
    )
    csv = root / "authors.csv"
    csv.write_text("author,text\n" + "".join(f"{a},{t}\n" for a, t in _from_rows()))
    main(["build", "--from", str(csv), "--schema", "labelled_texts", "--label-column", "author",
          "--out", str(root / "built" / FROM_FOLDER)])  # fmt: skip
    return {"steb": root / "built" / STEB_FOLDER, "from": root / "built" / FROM_FOLDER}


# --------------------------------------------------------------------- stand-ins


class _Served(BaseHTTPRequestHandler):
    """An OpenAI-compatible embeddings server: hashed character trigrams, dimension 24."""

    protocol_version = "HTTP/1.1"

    def _send(self, payload: object) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._send({"data": [{"id": "stub-embedder"}]})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self._send(
            {
                "model": body["model"],
                "data": [
                    {"index": i, "embedding": _trigram_vector(t)}
                    for i, t in enumerate(body["input"])
                ],
            }
        )

    def log_message(self, *args: object) -> None:
        pass


def _trigram_vector(text: str, dim: int = 24) -> list[float]:
    vector = [0.0] * dim
    for i in range(len(text) - 2):
        vector[hashlib.sha256(text[i : i + 3].encode()).digest()[0] % dim] += 1.0
    return vector


class Zoo:
    """Tiny model folders, built on first use (random weights, nothing downloaded)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.words = _vocabulary()
        self._made: dict[str, Any] = {}
        self.server: ThreadingHTTPServer | None = None

    def _once(self, name: str, make: Callable[[Path], Any]) -> Any:
        if name not in self._made:
            self._made[name] = make(self.folder / name)
        return self._made[name]

    def bert(self) -> str:
        from tests.tiny_models import write_tiny_bert

        return self._once("bert", lambda f: write_tiny_bert(f, self.words))

    def sentence_transformer(self) -> str:
        def make(folder: Path) -> str:
            from sentence_transformers import SentenceTransformer, models

            word = models.Transformer(self.bert(), max_seq_length=40)
            pooling = models.Pooling(word.get_embedding_dimension(), "mean")
            SentenceTransformer(modules=[word, pooling], device="cpu").save(str(folder))
            return str(folder)

        return self._once("st", make)

    def llama(self) -> str:
        from tests.tiny_models import write_tiny_llama

        return self._once("llama", lambda f: write_tiny_llama(f, self.words))

    def luar(self) -> str:
        from tests.tiny_models import write_tiny_luar

        return self._once("luar", lambda f: write_tiny_luar(f, self.words))

    def lisa(self) -> tuple[str, str]:
        from tests.tiny_models import write_tiny_lisa

        return self._once("lisa", lambda f: write_tiny_lisa(f, f.with_name("lisa-tok"), self.words))

    def neurobiber(self) -> str:
        from tests.tiny_models import write_tiny_neurobiber

        return self._once("neurobiber", lambda f: write_tiny_neurobiber(f, self.words))

    def served_url(self) -> str:
        if self.server is None:
            self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Served)
            threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@pytest.fixture(scope="module")
def zoo(tmp_path_factory: pytest.TempPathFactory):
    models = Zoo(tmp_path_factory.mktemp("models"))
    yield models
    if models.server is not None:
        models.server.shutdown()


@dataclass(frozen=True)
class Entry:
    """One row of the encoder table as this test runs it."""

    spec: Callable[[Zoo], str]  # the --model value a user types
    hub: Callable[[Zoo], dict[str, str]] = lambda zoo: {}  # hub id -> folder, "downloaded"
    space: bool = False  # the Space accepts it (built-ins, st:/hf: folders it allows)
    marks: tuple[Any, ...] = ()


TORCH = (pytest.mark.slow,)
ENTRIES: dict[str, Entry] = {
    "tfidf-ngrams": Entry(lambda z: "tfidf-ngrams", space=True, marks=(pytest.mark.models,)),
    "function-words": Entry(lambda z: "function-words", space=True),
    "stylometric": Entry(lambda z: "stylometric", space=True, marks=(pytest.mark.models,)),
    "random": Entry(lambda z: "random", space=True),
    "minilm": Entry(lambda z: "minilm", space=True, marks=(pytest.mark.models, pytest.mark.slow)),
    "neurobiber": Entry(  # the built-in name, its model "downloaded" into the Hub cache
        lambda z: "neurobiber",
        hub=lambda z: {NEUROBIBER_ID: z.neurobiber()},
        space=True,  # a built-in name: the Space runs it where the model is downloaded
        marks=TORCH,
    ),
    "st:": Entry(lambda z: f"st:{z.sentence_transformer()}", space=True, marks=TORCH),
    "hf:": Entry(lambda z: f"hf:{z.bert()}", space=True, marks=TORCH),
    "causal:": Entry(lambda z: f"causal:{z.llama()}", marks=TORCH),
    "luar:": Entry(lambda z: f"luar:{z.luar()}", marks=TORCH),
    "lisa:": Entry(  # the authors' tokenizer, t5-base, "downloaded" into the Hub cache
        lambda z: f"lisa:{z.lisa()[0]}", hub=lambda z: {"t5-base": z.lisa()[1]}, marks=TORCH
    ),
    "neurobiber:": Entry(lambda z: f"neurobiber:{z.neurobiber()}", marks=TORCH),
    "openai-embeddings:": Entry(lambda z: f"openai-embeddings:stub-embedder@{z.served_url()}"),
}


def _id(name: str, extra: str) -> str:
    base = f"prefix-{name[:-1]}" if name.endswith(":") else name
    return f"{base}-{extra}" if extra else base


def _params(names: list[str], *extra: str) -> list[Any]:
    return [
        pytest.param(name, *([e] if e else []), marks=ENTRIES[name].marks, id=_id(name, e))
        for name in names
        for e in (extra or ("",))
    ]


ALL = list(ENTRIES)


@pytest.fixture()
def hub_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[dict[str, str]], None]:
    """Put model folders into a private Hugging Face Hub cache in the Hub's layout
    (``models--org--name/refs/main`` + ``snapshots/<rev>/``), as a download leaves them."""

    def place(models: dict[str, str]) -> None:
        if not models:
            return
        import huggingface_hub.constants

        cache = tmp_path / "hub"
        for repo_id, folder in models.items():
            entry = cache / ("models--" + repo_id.replace("/", "--"))
            revision = hashlib.sha1(repo_id.encode()).hexdigest()
            (entry / "refs").mkdir(parents=True)
            (entry / "refs" / "main").write_text(revision)
            shutil.copytree(folder, entry / "snapshots" / revision)
        monkeypatch.setenv("HF_HUB_CACHE", str(cache))
        monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(cache))

    return place


# ------------------------------------------------------------------------ results

_CLI_SCORES: dict[tuple[str, str], dict[tuple[str, str], float]] = {}


def _scores(out: Path) -> dict[tuple[str, str], float]:
    """``{(config, task): main score}`` of every result JSON under ``out``."""
    found = {}
    for path in sorted(out.rglob("*.json")):
        payload = json.loads(path.read_text())
        found[(payload["dataset"]["config"], payload["task"])] = payload["main_score"]
    return found


def _check(scores: dict[tuple[str, str], float], folder: Path, where: str) -> None:
    from evaluators.run.runner import plan_tasks

    planned = {(s.config, s.task_type) for s in plan_tasks([str(folder)])}
    assert set(scores) == planned, f"{where}: results {sorted(scores)} != planned {sorted(planned)}"
    bad = {k: v for k, v in scores.items() if not (math.isfinite(v) and 0.0 <= v <= 1.0)}
    assert not bad, f"{where}: main scores outside [0, 1]: {bad}"


def cli_scores(
    name: str, kind: str, zoo: Zoo, datasets: dict[str, Path], root: Path,
    capsys: pytest.CaptureFixture[str],
) -> dict[tuple[str, str], float]:  # fmt: skip
    """The scores of ``stylebench run --model <spec> --dataset built/<kind>`` (run once;
    the caller has placed the entry's Hub models with the ``hub_cache`` fixture)."""
    if (name, kind) not in _CLI_SCORES:
        entry = ENTRIES[name]
        slug = re.sub(r"\W+", "_", name)
        out = root / "results" / f"{slug}-{kind}"
        shutil.rmtree(out, ignore_errors=True)
        _cli(["run", "--model", entry.spec(zoo), "--dataset", str(datasets[kind]),
              "--out", str(out), "--no-progress"], capsys)  # fmt: skip
        scores = _scores(out)
        _check(scores, datasets[kind], f"stylebench run --model {name} on {kind}")
        _CLI_SCORES[(name, kind)] = scores
    return _CLI_SCORES[(name, kind)]


# -------------------------------------------------------------------------- tests


def test_every_row_of_the_encoder_table_has_a_route_case() -> None:
    rows = set(BUILTIN_ENCODERS) | {f"{prefix}:" for prefix in PREFIXES}
    assert set(ENTRIES) == rows, "add the new encoder to ENTRIES (with a tiny stand-in)"


@pytest.mark.parametrize(("name", "kind"), _params(ALL, "steb", "from"))
def test_stylebench_run(name, kind, zoo, datasets, root, capsys, hub_cache) -> None:
    """``stylebench run --model <m> --dataset built/...``: every planned task has a
    result with a main score in [0, 1]."""
    hub_cache(ENTRIES[name].hub(zoo))
    cli_scores(name, kind, zoo, datasets, root, capsys)


@pytest.mark.parametrize(("name", "kind"), _params(ALL, "steb", "from"))
def test_python_api_evaluate(name, kind, zoo, datasets, root, capsys, hub_cache) -> None:
    """``evaluators.api.evaluate("<m>", folder)`` gives the CLI's numbers."""
    from evaluators.api import evaluate

    hub_cache(ENTRIES[name].hub(zoo))
    expected = cli_scores(name, kind, zoo, datasets, root, capsys)
    results = evaluate(ENTRIES[name].spec(zoo), datasets[kind])
    got = {(r.dataset.config, r.task): r.main_score for r in results}
    assert got and set(got) <= set(expected), (sorted(got), sorted(expected))
    for key, score in got.items():
        assert score == pytest.approx(expected[key], abs=1e-6), key


def test_installed_script_runs_the_readme_tfidf_example(datasets, root) -> None:
    """The console script as typed in a shell, from the user's folder (the README's
    ``stylebench run --model tfidf-ngrams ...``, which failed on every dataset)."""
    script = Path(sys.executable).with_name("stylebench")
    done = subprocess.run(
        [str(script), "run", "--model", "tfidf-ngrams", "--dataset", f"built/{STEB_FOLDER}",
         "--no-progress", "--out", "typed"],
        cwd=root, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-1500:]
    _check(_scores(root / "typed"), datasets["steb"], "the stylebench script")


test_installed_script_runs_the_readme_tfidf_example = pytest.mark.models(
    pytest.mark.slow(test_installed_script_runs_the_readme_tfidf_example)
)


# ---------------------------------------------------------------------- the Space


@pytest.fixture()
def space(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, root: Path, zoo: Zoo):
    """The Space's handlers, started from the user's folder with no Space variable set."""
    pytest.importorskip("gradio")
    spaces = Path(__file__).resolve().parents[2] / "spaces" / "stylebench"
    monkeypatch.syspath_prepend(str(spaces))
    monkeypatch.chdir(root)
    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "space"))
    monkeypatch.delenv("STYLEBENCH_SPACE_DATASETS", raising=False)
    monkeypatch.setenv("STYLEBENCH_SPACE_MODEL_DIRS", str(zoo.folder))
    from stylebench_space import ui

    return ui


@pytest.mark.slow
@pytest.mark.parametrize("name", _params(ALL))
def test_space_run_endpoint(name, space, zoo, datasets, root, capsys, hub_cache) -> None:
    """``/run_embedding`` on the two folders under ``built/`` (listed without any
    environment variable): the CLI's numbers (TF-IDF: the Space fits it on the texts of
    both folders of its one run, the CLI here on one folder's, so only its tasks are
    compared); encoders the
    Space refuses (models that run their own code, causal LMs, served models, paths it does
    not allow) get one line saying why."""
    import gradio as gr

    entry = ENTRIES[name]
    hub_cache(entry.hub(zoo))
    spec = entry.spec(zoo)
    choices = [f"built: {STEB_FOLDER}", f"built: {FROM_FOLDER}"]
    if not entry.space:
        with pytest.raises(gr.Error) as refused:
            space.run_embedding(spec, choices, "", [], progress=lambda *a, **k: None)
        message = refused.value.message
        assert "\n" not in message and "something went wrong" not in message, message
        return
    table, _chart, summary = space.run_embedding(
        spec, choices, "", [], progress=lambda *a, **k: None
    )
    assert "Not run" not in summary, summary
    for kind, folder in (("steb", STEB_FOLDER), ("from", FROM_FOLDER)):
        expected = cli_scores(name, kind, zoo, datasets, root, capsys)
        mine = table[table["dataset"].str.startswith(folder)]
        main = {
            (
                row["dataset"].split("[")[-1].rstrip("]") if "[" in row["dataset"] else None,
                row["task"],
            ): row["score"]
            for _, row in mine.iterrows()
            if row["metric"] in {"auc", "v_measure"}  # the main scores (not the extras)
        }
        assert len(main) == len(expected), (kind, main, expected)
        if name == "tfidf-ngrams":
            continue
        by_task = sorted((task, round(v, 4)) for (_, task), v in main.items())
        assert by_task == sorted((t, round(v, 4)) for (_, t), v in expected.items()), kind


# --------------------------------------------------------------------------- Ray


@pytest.fixture(scope="module")
def ray_cluster():
    import tempfile

    ray = pytest.importorskip("ray")
    temp = tempfile.mkdtemp(prefix="sbroute")  # short: Ray's socket paths stay < 108 bytes
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp,
             _node_ip_address="127.0.0.1")  # fmt: skip
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", _params(["function-words", "tfidf-ngrams"]))
def test_stylebench_run_on_ray(name, ray_cluster, zoo, datasets, root, capsys, hub_cache) -> None:
    """``stylebench run --ray auto`` on each folder: the serial run's numbers (one
    folder per run, as the serial runs: TF-IDF is fitted on the evaluated texts)."""
    for kind in ("steb", "from"):
        out = root / "ray" / f"{name}-{kind}"
        shutil.rmtree(out, ignore_errors=True)
        _cli(["run", "--model", name, "--dataset", str(datasets[kind]), "--out", str(out),
              "--ray", "auto", "--no-progress"], capsys)  # fmt: skip
        expected = cli_scores(name, kind, zoo, datasets, root, capsys)
        assert _scores(out) == pytest.approx(expected, abs=1e-12), kind


@pytest.mark.slow
def test_space_lists_built_and_runs_typed_registered_ids(
    space, zoo, datasets, root, capsys, recwarn
) -> None:
    """Started from the folder where ``stylebench build`` ran, the Space lists ``built/``
    with no setting; a typed ``steb/...`` id, ``repo:config`` and the old per-dataset id
    run offline from ``datasets``' cache, as ``load_dataset`` reads them; an unbuilt id
    still says it cannot be fetched."""
    from stylebench_space import embedding, safety

    assert {f"built: {STEB_FOLDER}", f"built: {FROM_FOLDER}"} <= set(embedding.dataset_choices())
    expected = cli_scores("function-words", "steb", zoo, datasets, root, capsys)
    typed = f"{STEB_REPO}:hard\n{STEB_REPO}_medium\n{STEB_REPO}"
    table, _chart, summary = space.run_embedding(
        "function-words", [], typed, ["predefined_pairs"], progress=lambda *a, **k: None
    )
    assert "Not run" not in summary, summary
    scores = {row["dataset"]: row["score"] for _, row in table.iterrows()}
    assert scores[f"{STEB_REPO}:hard"] == round(expected[("hard", "predefined_pairs")], 4)
    assert scores[f"{STEB_REPO}_medium"] == round(expected[("medium", "predefined_pairs")], 4)
    for config in ("easy", "medium", "hard"):  # the whole repo: each of its configs
        assert scores[f"{STEB_REPO} [{config}]"] == round(expected[(config, "predefined_pairs")], 4)
    assert safety.validate_dataset_id(" org/name:config_1 ") == "org/name:config_1"
    for bad in ("org/name:", "org/name:../x", "org/name:a:b", "org:name"):
        with pytest.raises(safety.UserError, match="not a Hub dataset id"):
            safety.validate_dataset_id(bad)
    with pytest.raises(safety.UserError, match="cannot fetch dataset 'steb/not_built_here'"):
        embedding.resolve_datasets([], "steb/not_built_here:hard")


@pytest.mark.slow
def test_no_progress_also_silences_model_loading_bars(zoo, datasets, root) -> None:
    """In a fresh interpreter, as the console script runs it: with ``--no-progress`` no
    bar at all reaches stderr, though transformers draws a "Loading weights" bar for the
    same model in the next command of that process, run without the flag."""
    argv = ["run", "--model", f"neurobiber:{zoo.neurobiber()}", "--dataset",
            f"built/{FROM_FOLDER}", "--no-cache", "--out", "quiet"]  # fmt: skip
    code = (
        "import sys\nfrom evaluators.cli import main\n"
        f"main({[*argv, '--no-progress']!r})\nprint('=== shown', file=sys.stderr)\n"
        f"main({argv!r})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    quiet, shown = done.stderr.split("=== shown")
    assert "Loading weights" in shown and "%|" in shown, shown  # what the flag must hide
    assert "Loading weights" not in quiet and "%|" not in quiet, quiet
