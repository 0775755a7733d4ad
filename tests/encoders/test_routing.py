"""STEB routing of bare model paths and hub ids, and the encoders package layout:
a thin lazy ``__init__`` (importing or listing encoders loads no heavy library)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders import encoder_identity, get_encoder, steb_route
from tests.tiny_models import write_tiny_bert, write_tiny_lisa

from .conftest import TINY_WORDS, needs_minilm, needs_torch

REPO = Path(__file__).resolve().parents[2]


def test_importing_and_listing_encoders_loads_no_heavy_library():
    code = (
        "import sys, evaluators.encoders as e\n"
        "rows = e.list_encoders()\n"
        "heavy = ('torch', 'transformers', 'sentence_transformers', 'spacy', 'sklearn')\n"
        "print(len(rows), [m for m in heavy if m in sys.modules])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    count, loaded = done.stdout.split(" ", 1)
    assert int(count) >= 13 and loaded.strip() == "[]"


def test_init_is_a_thin_reexport_without_a_second_home():
    import evaluators.encoders as package
    from evaluators.encoders import routing, table

    source = (REPO / "evaluators/encoders/__init__.py").read_text()
    assert "def get_encoder" not in source and "class " not in source
    assert package.get_encoder is routing.get_encoder
    assert package.BUILTIN_ENCODERS is table.BUILTIN_ENCODERS
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


def test_named_models_route_by_name_without_loading():
    for hub_id in ("rrivera1849/LUAR-MUD", "rrivera1849/LUAR-CRUD"):
        assert steb_route(hub_id).prefix == "luar"
    assert steb_route("Blablablab/neurobiber").prefix == "neurobiber"


@needs_torch
def test_folder_routing_follows_the_authors_get_model(tmp_path, tiny_causal_dirs):
    bert = write_tiny_bert(tmp_path / "bert", TINY_WORDS)
    route = steb_route(bert)
    assert route.prefix == "hf" and route.options == {"max_length": None}
    assert "model_type bert" in route.note and "mean" in route.note
    for arch in ("llama", "gpt2"):  # model_type causal-only / LMHeadModel architecture
        route = steb_route(str(tiny_causal_dirs[arch]))
        assert route.prefix == "causal" and route.options == {"max_length": 10240}
    lisa, _ = write_tiny_lisa(tmp_path / "lisa", tmp_path / "lisa-tok", TINY_WORDS)
    assert steb_route(lisa).prefix == "lisa"  # linear_embedder.ckpt wins over config.json
    st_only = tmp_path / "st-only"
    st_only.mkdir()
    (st_only / "modules.json").write_text(json.dumps([]))
    assert steb_route(str(st_only))[:3] == ("st", str(st_only), {"max_length": 10240})
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(StylebenchError, match=r"no config\.json or modules\.json"):
        steb_route(str(empty))
    (empty / "config.json").write_text("{not json")
    with pytest.raises(StylebenchError, match="not readable JSON"):
        steb_route(str(empty))


@needs_torch
def test_bare_config_folder_is_mean_pooled_at_the_models_limit_and_says_so(tmp_path):
    import torch

    folder = write_tiny_bert(tmp_path / "bert", TINY_WORDS)
    encoder = get_encoder(folder, device="cpu", batch_size=2)
    identity = encoder_identity(encoder)
    assert identity["pooling"] == "masked-mean" and identity["max_tokens"] == 48
    assert identity["routed_by"].startswith("steb routing: config.json (model_type bert)")
    texts = ["the cat sat on the mat .", "you ?", "we ran in the park with a dog"]
    vectors = encoder.encode(texts)
    for row, text in enumerate(texts):  # masked mean in numpy, each text alone
        encoded = encoder.tokenizer(text, return_tensors="pt")
        with torch.inference_mode():
            hidden = encoder.model(**encoded).last_hidden_state[0].double().numpy()
        np.testing.assert_allclose(vectors[row], hidden.mean(axis=0), atol=1e-5)
    explicit = get_encoder(f"hf:{folder}", device="cpu", max_length=None)
    np.testing.assert_allclose(explicit.encode(texts), vectors, atol=1e-6)
    assert "routed_by" not in encoder_identity(explicit)
    chunked = get_encoder(folder, device="cpu", chunk=True)
    assert encoder_identity(chunked)["routed_by"] == identity["routed_by"]


@needs_torch
def test_bare_causal_folder_reads_up_to_the_authors_cap(tiny_causal_dirs):
    encoder = get_encoder(str(tiny_causal_dirs["llama"]), device="cpu")
    identity = encoder_identity(encoder)
    assert identity["pooling"] == "last-token" and identity["max_tokens"] == 64  # < 10240
    assert "causal LM" in identity["routed_by"]


@needs_minilm
@pytest.mark.models
def test_bare_minilm_folder_is_the_raw_hf_model_as_in_the_steb_code(minilm_dir, minilm):
    routed = get_encoder(str(minilm_dir), device="cpu")
    identity = encoder_identity(routed)
    assert identity["kind"] == "masked-mean" and identity["max_tokens"] == 512
    texts = ["Hello there.", "A second, somewhat longer text about something else."]
    raw, pipeline = routed.encode(texts), minilm.encode(texts)
    assert not np.allclose(np.linalg.norm(raw, axis=1), 1.0, atol=1e-3)  # no Normalize
    unit = raw / np.linalg.norm(raw, axis=1, keepdims=True)
    np.testing.assert_allclose(unit, pipeline, atol=1e-5)  # same direction as `minilm`


def test_unknown_spec_lists_every_prefix():
    with pytest.raises(Exception) as info:
        get_encoder("not a model")
    for prefix in ("st:", "hf:", "causal:", "luar:", "lisa:", "neurobiber:"):
        assert prefix in str(info.value)


@needs_torch
def test_cli_run_on_a_config_folder_states_the_routing_in_output_and_results(tmp_path):
    from click.testing import CliRunner

    from dataset_scripts.build import build_dataset
    from dataset_scripts.demo.build import HUB_ID
    from dataset_scripts.registry import get_dataset
    from evaluators.cli import cli

    demo, _ = build_dataset(get_dataset(HUB_ID), None, tmp_path / "demo")
    model = write_tiny_bert(tmp_path / "bert", TINY_WORDS)
    args = ["run", "--no-progress", "--no-cache", "--model", model, "--dataset", str(demo)]
    result = CliRunner().invoke(cli, [*args, "--tasks", "clustering", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "steb routing: config.json (model_type bert)" in " ".join(result.output.split())
    payloads = [json.loads(p.read_text()) for p in (tmp_path / "o").rglob("*.json")]
    identities = [p["model"]["identity"] for p in payloads if "model" in p]
    assert identities and all(i["routed_by"].startswith("steb routing") for i in identities)
    assert all(i["pooling"] == "masked-mean" and i["max_tokens"] == 48 for i in identities)
