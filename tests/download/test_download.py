"""``stylebench build --download`` end to end, offline for real: every host kind served
from 127.0.0.1 in its real layout (``tests/download/hosts.py``), archives built at test
time from ``../shared/corpora``. Checked: the Parquet equals a ``--raw`` build's byte for
byte; a changed byte is refused with both hashes and nothing built; a cut connection
resumes to the right hash; 404, a timeout, a trickling server, a full disk and a
read-only cache each end in one line naming the URL or folder and what to do, within
the deadline, leaving nothing half-written."""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from dataset_scripts.core.source import Source, github, manual
from dataset_scripts.registry import all_datasets, all_sources, source_of
from dataset_scripts.sources.checksums import (
    ChecksumError,
    entries_for_folder,
    read_registry,
)
from dataset_scripts.sources.extract import UnsafeArchive, extract
from dataset_scripts.sources.fetch import ManualStepNeeded, Options, prepare
from dataset_scripts.sources.http import DownloadError, Limits, fetch
from tests.download.hosts import Hosts, serve, tarball, zipped
from tests.faults.harness import full_filesystem, read_only_folder, run_cli

pytestmark = pytest.mark.corpora

#: dataset id -> the host kind its source is downloaded from (17 datasets)
E2E = {
    "steb/corpus-of-diverse-styles": "github",
    "steb/STEL:feature": "github",
    "steb/STEL:register": "github",
    "steb/pan22_style_change:basic": "github",
    "steb/pan13_authorship_verification:english": "github",
    "steb/pan26_style_change": "github",  # easy, medium, hard
    "steb/sms_spam": "github",
    "steb/pan25_style_change": "zenodo",  # easy, medium, hard
    "steb/blog_authorship_corpus:gender": "hub",
    "steb/twitter_aave_sae": "https",
    "steb/hate_speech_and_offensive_language": "https",
    "steb/stanford_politeness:wikipedia": "https",
    "styledisc/reuters": "github",  # and every other domain's source, read beside it
}
FAST = Limits(timeout=1.0, retries=1, backoff=0.05, min_rate=1000.0, rate_window=1.0)


def _sources() -> set[str]:
    from dataset_scripts.registry import resolve
    from evaluators.downloads import reads_beside

    names = set()
    for hub_id in E2E:
        for spec in resolve(hub_id)[0]:
            names.add(source_of(spec).name)
            names.update(s.name for s in reads_beside(spec))
    return names


@pytest.fixture(scope="module")
def hosts(corpora: Path):
    served = Hosts()
    sources = all_sources()
    for name in sorted(_sources()):
        if (corpora / name).is_dir():  # the others answer 404 (amazon_fine_food, lyrics)
            served.add_source(sources[name], corpora / name)
    yield from serve(served)


def _env(hosts: Hosts, cache: Path, **extra: str) -> dict[str, str]:
    return {
        "STYLEBENCH_CACHE": str(cache),
        "HF_HUB_OFFLINE": "0",  # the local Hub stands in for huggingface.co
        "HF_ENDPOINT": hosts.url,
        "STYLEBENCH_GITHUB_ENDPOINT": hosts.url,
        "STYLEBENCH_ZENODO_ENDPOINT": hosts.url,
        **extra,
    }


def _parquet(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*.parquet"))
    }


@pytest.fixture(scope="module")
def raw_build(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The same datasets built with --raw from ../shared/corpora: the reference."""
    built = tmp_path_factory.mktemp("raw-built")
    result = run_cli(
        ["build", *E2E, "--raw-root", str(corpora), "--built-root", str(built), "--no-register"],
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return _parquet(built)


@pytest.mark.slow
def test_build_download_through_a_mirror_equals_raw_builds(
    hosts: Hosts, raw_build: dict[str, str], tmp_path: Path
) -> None:
    """All four host kinds (plain HTTPS files through the mirror, whose layout is
    <mirror>/<host>/<path>): 17 datasets built, Parquet bytes equal to --raw's (a
    styledisc domain with the other domains' sources it reads beside its own)."""
    built = tmp_path / "built"
    result = run_cli(
        ["build", *E2E, "--download", "--mirror", f"{hosts.url}/mirror", "--built-root",
         str(built), "--no-register", "--no-progress", "--accept-terms"],
        env=_env(hosts, tmp_path / "cache"),
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "17 built, 0 need a manual step, 0 failed" in result.stdout
    assert _parquet(built) == raw_build
    assert len(raw_build) >= 17
    assert "built without lyrics_edenbd" in result.stdout  # gated: the builder goes without
    served = {path for _, path, _ in hosts.log}
    assert any(p.startswith("/mirror/raw.githubusercontent.com/") for p in served)
    assert any(p.startswith("/mirror/zenodo.org/records/14891299/") for p in served)
    assert any(p.startswith("/mirror/huggingface.co/datasets/barilan/") for p in served)
    # the cache is laid out as a mirror: the same <host>/<path> below downloads/
    downloads = tmp_path / "cache" / "downloads"
    assert (
        downloads / "zenodo.org/records/14891299/files/pan25-multi-author-analysis.zip"
    ).is_file()
    assert not list(downloads.rglob("*.part")) and not list(downloads.glob("extracted/.*partial*"))
    # item 7: what a maintainer publishes after building: every release repo and file
    from dataset_scripts.registry import releases

    pushed = run_cli(
        ["push", "--all", "--org", "mirror-org", "--dry-run", "--built-root", str(built)]
    )
    assert pushed.returncode == 0, pushed.stderr
    assert f"12 of {len(releases())} release repos" in pushed.stdout
    assert "mirror-org/pan25_style_change (dataset" in pushed.stdout
    for parquet in raw_build:
        assert f"  {parquet.split('/', 1)[1]}" in pushed.stdout
    assert "skip steb/PASTEL: not built under" in pushed.stdout


@pytest.mark.slow
def test_build_download_from_each_hosts_layout(
    hosts: Hosts, raw_build: dict[str, str], corpora: Path, tmp_path: Path
) -> None:
    """No mirror: the GitHub archive, the Zenodo record file and the Hub repo through
    huggingface_hub (HF_ENDPOINT) at their own URLs; then `sources list` says verified."""
    ids = [
        "steb/corpus-of-diverse-styles",
        "steb/pan25_style_change",
        "steb/blog_authorship_corpus:gender",
    ]
    built, cache = tmp_path / "built", tmp_path / "cache"
    env = _env(hosts, cache)
    before = len(hosts.log)
    result = run_cli(
        ["build", *ids, "--download", "--built-root", str(built), "--no-register",
         "--no-progress", "--accept-terms"],
        env=env,
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    got = _parquet(built)
    assert got and all(raw_build[k] == v for k, v in got.items())
    calls = [(m, p) for m, p, _ in hosts.log[before:]]
    assert ("GET", "/martiansideofthemoon/style-transfer-paraphrase/archive/"
            "a7056305494ae6e713666da1592c2696775828ab.tar.gz") in calls  # fmt: skip
    assert ("GET", "/records/14891299/files/pan25-multi-author-analysis.zip") in calls
    assert any(
        m == "GET" and p.startswith("/api/datasets/barilan/blog_authorship_corpus/")
        for m, p in calls
    )
    assert ("GET", "/datasets/barilan/blog_authorship_corpus/resolve/"
            "0123456789abcdef0123456789abcdef01234567/data/blogs.zip") in calls  # fmt: skip
    # the builder's folder holds the download's files and nothing else (no bookkeeping
    # file: a builder reading every *.json of its folder, as PASTEL's does, sees none)
    extracted = cache / "downloads" / "extracted" / "CDS_samples"
    copy = corpora / "CDS_samples"
    assert sorted(p.relative_to(extracted) for p in extracted.rglob("*") if p.is_file()) == sorted(
        p.relative_to(copy) for p in copy.rglob("*") if p.is_file() and p.name != "SOURCE.txt"
    )
    listed = run_cli(["sources", "list", "--format", "json"], env=env)
    rows = {r["source"]: r for r in json.loads(listed.stdout)}
    assert rows["CDS_samples"]["status"] == "verified"
    assert rows["pan25_multi_author_analysis"]["status"] == "verified"
    assert rows["PASTEL"]["status"] == "not downloaded"
    assert rows["pan22_style_change_dataset2"]["status"] == "gated"


def test_a_changed_byte_is_refused_with_both_hashes(hosts: Hosts, tmp_path: Path) -> None:
    source = all_sources()["davidson_hate_speech_offensive"]
    path = hosts.mirror_path(source.downloads[0])
    good = hosts.files[path]
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x01
    hosts.files[path] = bytes(bad)
    try:
        built, cache = tmp_path / "built", tmp_path / "cache"
        result = run_cli(
            ["build", "steb/hate_speech_and_offensive_language", "--download", "--mirror",
             f"{hosts.url}/mirror", "--built-root", str(built), "--no-progress"],
            env=_env(hosts, cache),
        )  # fmt: skip
    finally:
        hosts.files[path] = good
    assert result.returncode != 0
    expected = next(e for e in read_registry()["davidson_hate_speech_offensive"])
    actual = hashlib.sha256(bad).hexdigest()
    last = result.stderr.strip().splitlines()[-1]
    assert expected.sha256 in last and actual in last and "labeled_data.csv" in last
    assert not built.exists() or not any(built.iterdir())
    left = [p for p in (cache / "downloads").rglob("*") if p.is_file()]
    assert left == []  # the refused bytes are not kept, nothing half-extracted


def test_a_changed_file_inside_a_valid_archive_is_named(
    hosts: Hosts, corpora: Path, tmp_path: Path
) -> None:
    source = all_sources()["CDS_samples"]
    download = source.downloads[0]
    from tests.download.hosts import copy_files

    files = copy_files(source, download, corpora / "CDS_samples")
    files["data_samples/joyce.txt"] = files["data_samples/joyce.txt"] + b"x"
    path = f"{hosts.mirror_path(download)}"
    good = hosts.files[path]
    hosts.files[path] = tarball(f"style-transfer-paraphrase-{download.revision}/", files)
    try:
        with pytest.raises(ChecksumError) as caught:
            prepare(source, Options(tmp_path / "dl", mirror=f"{hosts.url}/mirror", limits=FAST))
    finally:
        hosts.files[path] = good
    assert "data_samples/joyce.txt" in str(caught.value)
    assert str(caught.value).count("SHA-256") == 1 and "recorded" in str(caught.value)
    assert [p for p in (tmp_path / "dl").rglob("*") if p.is_file()] == []


def test_a_cut_connection_resumes_with_range_to_the_right_hash(
    hosts: Hosts, tmp_path: Path
) -> None:
    download = all_sources()["davidson_hate_speech_offensive"].downloads[0]
    path = hosts.mirror_path(download)
    hosts.faults[path] = ("cut", 100_000)
    before = len(hosts.log)
    dest = tmp_path / "labeled_data.csv"
    fetch(f"{hosts.url}{path}", dest, limits=FAST, sleep=lambda _: None)
    ranges = [r for _, p, r in hosts.log[before:] if p == path]
    assert ranges == ["", "bytes=100000-"]
    assert (
        hashlib.sha256(dest.read_bytes()).hexdigest()
        == hashlib.sha256(hosts.files[path]).hexdigest()
    )
    assert not (tmp_path / "labeled_data.csv.part").exists()


@pytest.mark.parametrize(
    ("fault", "deadline", "says"),
    [
        (("status", 404), 2.0, "HTTP 404 (not found)"),
        (("status", 503), 3.0, "HTTP 503"),
        (("hang", 10), 5.0, "no answer within 1 s"),
        (("trickle", 10), 6.0, "bytes/s"),
    ],
)
def test_a_failing_host_ends_in_one_line_within_the_deadline(
    hosts: Hosts, tmp_path: Path, fault: tuple[str, int], deadline: float, says: str
) -> None:
    """Deadlines: (retries + 1) x timeout plus backoff (hang), (retries + 1) x the rate
    window (trickle): 1 retry, 1 s, 1000 bytes/s over 1 s here."""
    source = all_sources()["AAVE_SAE_Groenwold"]
    path = hosts.mirror_path(source.downloads[0])
    hosts.faults[path] = fault
    started = time.monotonic()
    try:
        with pytest.raises(DownloadError) as caught:
            prepare(source, Options(tmp_path / "dl", mirror=f"{hosts.url}/mirror", limits=FAST))
    finally:
        hosts.faults.pop(path, None)
    assert time.monotonic() - started < deadline
    message = str(caught.value)
    assert "\n" not in message and says in message and path in message
    assert "mirror" in message or "later" in message  # what to do
    left = [p for p in (tmp_path / "dl").rglob("*") if p.is_file()]
    # only the source's other file, fetched whole in parallel (kept for the next run)
    assert [p.name for p in left] in ([], ["aave_samples.txt"])
    assert not (tmp_path / "dl" / "extracted").exists() or not any(
        (tmp_path / "dl" / "extracted").iterdir()
    )


def test_a_full_disk_and_a_read_only_cache_end_in_one_line(hosts: Hosts, tmp_path: Path) -> None:
    """Deadline: 2 s each (a write error is final: no retry)."""
    source = all_sources()["davidson_hate_speech_offensive"]  # 2.5 MB into 256 KiB
    with full_filesystem(tmp_path / "full", size_kb=256) as full:
        started = time.monotonic()
        with pytest.raises(DownloadError) as caught:
            prepare(source, Options(full / "dl", mirror=f"{hosts.url}/mirror", limits=FAST))
        assert time.monotonic() - started < 2.0
        message = str(caught.value)
        assert "\n" not in message
        assert "no space left" in message and str(full / "dl") in message
        assert "STYLEBENCH_CACHE" in message  # what to do
        assert [p for p in full.rglob("*") if p.is_file()] == []
    with read_only_folder(tmp_path / "ro") as ro:
        started = time.monotonic()
        with pytest.raises(DownloadError) as caught:
            prepare(source, Options(ro / "dl", mirror=f"{hosts.url}/mirror", limits=FAST))
        assert time.monotonic() - started < 2.0
        message = str(caught.value)
        assert "\n" not in message and str(ro / "dl") in message
        assert "not writable" in message and "STYLEBENCH_CACHE" in message
        assert [p for p in ro.rglob("*") if p.is_file()] == []


def test_the_cli_prints_one_line_for_a_missing_file(hosts: Hosts, tmp_path: Path) -> None:
    built = tmp_path / "built"
    result = run_cli(
        ["build", "steb/sms_spam", "--download", "--mirror", f"{hosts.url}/nowhere",
         "--built-root", str(built), "--no-progress"],
        env=_env(hosts, tmp_path / "cache", STYLEBENCH_DOWNLOAD_RETRIES="0"),
    )  # fmt: skip
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "/nowhere/github.com/SnehaKedia/" in errors[0]
    assert "HTTP 404" in errors[0] and "--mirror" in errors[0]
    assert "failed" in result.stdout  # the table
    assert not built.exists() or not any(built.iterdir())


def test_terms_need_accepting_non_interactively(hosts: Hosts, tmp_path: Path) -> None:
    result = run_cli(
        ["build", "steb/STEL:feature", "--download", "--mirror", f"{hosts.url}/mirror",
         "--built-root", str(tmp_path / "built")],
        env=_env(hosts, tmp_path / "cache"),
    )  # fmt: skip
    assert result.returncode == 2
    assert "Yahoo Webscope" in result.stdout and "--accept-terms" in result.stderr
    assert not (tmp_path / "cache" / "downloads").exists()


def test_a_gated_source_says_where_and_builds_once_the_file_is_there(
    corpora: Path, tmp_path: Path
) -> None:
    """TFDS-style manual download: the exact file name and folder; the next run verifies
    (against recorded hashes) and extracts it."""
    source = Source(
        "pan22_style_change",
        (manual("https://zenodo.org/records/6334245", "pan22-style-change-detection.zip", "zip"),),
        license="test",
        gated=True,
        instructions="Request access on Zenodo.",
    )
    registry = {source.name: read_registry()["pan22_style_change"]}
    options = Options(tmp_path / "dl", registry=registry)
    with pytest.raises(ManualStepNeeded) as caught:
        prepare(source, options)
    folder = tmp_path / "dl" / "manual" / "pan22_style_change"
    assert f"put pan22-style-change-detection.zip into {folder}" in str(caught.value)
    assert "https://zenodo.org/records/6334245" in str(caught.value)
    copy = corpora / "pan22_style_change"
    files = {
        p.relative_to(copy).as_posix(): p.read_bytes()
        for p in copy.rglob("*")
        if p.is_file() and p.name != "SOURCE.txt"
    }
    folder.mkdir(parents=True)
    (folder / "pan22-style-change-detection.zip").write_bytes(zipped(files))
    prepared = prepare(source, options)
    assert prepared.verified
    assert (
        len(list((prepared.folder / "pan22-style-change-detection/dataset1/validation").iterdir()))
        == 600
    )


def test_hostile_archives_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    into = tmp_path / "into"
    for name in ("../evil.txt", "/abs/evil.txt", "a/../../evil.txt"):
        archive = tmp_path / "bad.tar.gz"
        archive.write_bytes(tarball("", {name: b"x"}))
        with pytest.raises(UnsafeArchive):
            extract(archive, "tar.gz", (("", ""),), into)
    # a symlink pointing out is never created
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        link = tarfile.TarInfo("top/link")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    (tmp_path / "link.tar.gz").write_bytes(buffer.getvalue())
    written, skipped = extract(tmp_path / "link.tar.gz", "tar.gz", (("", ""),), into)
    assert (written, skipped) == (0, 1) and not (into / "top" / "link").exists()
    # a zip bomb: 4 MiB of zeros in a 4 KiB zip, past 200x its size (the 64 MiB slack
    # made 0 here, so that the test stays small)
    import dataset_scripts.sources.extract as extract_module

    monkeypatch.setattr(extract_module, "SLACK", 0)
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as handle:
        handle.writestr("zeros", b"\0" * (4 << 20))
    (tmp_path / "bomb.zip").write_bytes(bomb.getvalue())
    with pytest.raises(UnsafeArchive, match="inflates past"):
        extract(tmp_path / "bomb.zip", "zip", (("", ""),), tmp_path / "bomb")
    monkeypatch.setenv("STYLEBENCH_MAX_EXTRACT", "1000")  # the absolute cap
    small = tmp_path / "small.zip"
    small.write_bytes(zipped({"a": b"y" * 2000}))
    with pytest.raises(UnsafeArchive):
        extract(small, "zip", (("", ""),), tmp_path / "small")
    assert not (tmp_path / "evil.txt").exists() and not Path("/abs/evil.txt").exists()


def test_every_dataset_that_needs_a_download_has_a_declared_source() -> None:
    missing = [s.hub_id for s in all_datasets().values() if s.needs_raw and source_of(s) is None]
    assert missing == []


@pytest.mark.slow
def test_the_registry_holds_the_hashes_of_the_shared_copies(corpora: Path) -> None:
    """Item 2: every source with a raw copy here has its files' SHA-256s recorded, equal
    to the copy's (a gzip'ed copy is recorded with its content's hash)."""
    registry = read_registry()
    checked = 0
    for name, source in sorted(all_sources().items()):
        folder = corpora / name
        if not folder.is_dir():
            continue
        gz = any(folder.rglob("*.gz"))
        assert registry.get(name), f"{name}: no hashes recorded"
        got = entries_for_folder(name, folder, wanted=source.covers, gunzip=gz)
        assert sorted(e.line() for e in got) == sorted(e.line() for e in registry[name]), name
        checked += 1
    assert checked >= 35


def test_a_source_without_hashes_builds_unverified_and_record_pins_it(
    hosts: Hosts, corpora: Path, tmp_path: Path
) -> None:
    from dataset_scripts.sources.fetch import record

    source = all_sources()["sms_spam_collection"]
    options = Options(tmp_path / "dl", mirror=f"{hosts.url}/mirror", registry={}, limits=FAST)
    prepared = prepare(source, options)
    assert not prepared.verified
    lines = record(
        source, Options(tmp_path / "dl2", mirror=f"{hosts.url}/mirror", registry={}, limits=FAST)
    )
    assert sorted(e.line() for e in lines) == sorted(
        e.line() for e in read_registry()["sms_spam_collection"]
    )


def test_mirror_layout_matches_the_cache_layout() -> None:
    from dataset_scripts.sources.fetch import mirror_url

    download = github("o/r", "c" * 40)
    assert mirror_url("http://m/", download) == f"http://m/github.com/o/r/archive/{'c' * 40}.tar.gz"
    assert os.path.join("downloads", download.site_path()).endswith(
        f"o/r/archive/{'c' * 40}.tar.gz"
    )


def test_a_dataset_of_another_family_names_the_command_with_download() -> None:
    result = run_cli(["steb", "build", "arb/quartets", "--download"])
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "error: arb/quartets is a dataset of the arb family, not steb: `stylebench arb build "
        "arb/quartets --download` (or `stylebench build arb/quartets --download`)"
    )
