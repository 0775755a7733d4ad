"""``steb/corpus-of-diverse-styles``: sentences of 11 styles (Krishna et al. 2020), labelled
by style (STEB App. C.4).

Raw format: one file per style, one sentence per line, ``<style>.txt`` -- the sample release
``data_samples/`` of the style-transfer-paraphrase repository (1,000 sentences per style)
or the same layout exported from the Hub dataset ``billray110/corpus-of-diverse-styles``.

Order alignment: STEB also uses CDS for order alignment (Table 15: 11 groups x 400 texts),
which needs a parallel counterpart (a paraphrase) of every sentence. The sample release has
plain sentences only, so this builder writes no ``style_sequences`` config.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult
from dataset_scripts.steb.catalog import ORDER, SampleCount, clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_table

URL = "https://huggingface.co/datasets/billray110/corpus-of-diverse-styles"
STYLES = (
    "aae",
    "bible",
    "coha_1810-1830",
    "coha_1890-1910",
    "coha_1990-2000",
    "english_tweets",
    "joyce",
    "lyrics",
    "romantic_poetry",
    "shakespeare",
    "switchboard",
)


def _folder(raw: Path) -> Path:
    for base in (raw / "data_samples", raw):
        if (base / f"{STYLES[0]}.txt").is_file():
            return base
    raise DataError(
        f"missing CDS style files: expected {raw / 'data_samples' / 'aae.txt'} and the other "
        f"<style>.txt files ({', '.join(STYLES)}) (download: {URL})"
    )


def read_records(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    base = _folder(raw)
    for style in STYLES:
        path = base / f"{style}.txt"
        if not path.is_file():
            raise DataError(f"missing CDS style file: expected {path} (download: {URL})")
        with path.open(encoding="utf-8") as handle:
            for line_no, line in enumerate(handle, start=1):
                if "\x00" in line:
                    raise DataError(f"{path} line {line_no}: NUL byte in a sentence")
                yield f"{style}-{line_no}", line.rstrip("\n"), style


PROTOCOL = (
    "Every line of `<style>.txt` is one text labelled with its style. "
    + CAP_PROTOCOL
    + " Built from the sample release (1,000 sentences per style), the first 200 per style "
    "give 11 x 200 = 2,200 texts, the Table 15 count; the texts are the sample's first "
    "sentences, not the first sentences of the full corpus STEB loaded from the Hub. The "
    "order-alignment config of STEB (11 x 400) needs paraphrase pairs that the sample release "
    "does not contain, so it is not built."
)


def build(raw: Path | None) -> BuildResult:
    """CDS sentences labelled by style."""
    if raw is None:
        raise DataError("steb/corpus-of-diverse-styles needs --raw <folder of <style>.txt>")
    dropped: Counter[str] = Counter()
    return labelled_table(read_records(Path(raw), dropped), dropped)


DATASETS = (
    steb_dataset(
        name="corpus-of-diverse-styles",
        summary="Corpus of Diverse Styles: sentences of 11 styles (lyrics, three COHA decade "
        "slices, tweets, AAE tweets, Joyce, Bible, Switchboard, romantic poetry, Shakespeare).",
        bucket="genre",
        definitional=("genre", "content_independence"),
        counts={**clustering_counts(11, 200), ORDER: SampleCount(11, 400, 4_400)},
        source_url="https://huggingface.co/datasets/billray110/corpus-of-diverse-styles",
        license="MIT (code, https://github.com/martiansideofthemoon/style-transfer-paraphrase); "
        "cite and respect the original source of each style",
        raw_format="one sentence per line, one file per style (data_samples/<style>.txt)",
        citation="""@inproceedings{krishna-etal-2020-reformulating,
  title     = {Reformulating Unsupervised Style Transfer as Paraphrase Generation},
  author    = {Krishna, Kalpesh and Wieting, John and Iyyer, Mohit},
  booktitle = {Proceedings of EMNLP 2020},
  year      = {2020}
}""",
        builder=build,
        protocol=PROTOCOL,
        raw_hint="CDS_samples",
    ),
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "CDS_samples",
        (
            github(
                "martiansideofthemoon/style-transfer-paraphrase",
                "a7056305494ae6e713666da1592c2696775828ab",
                ("data_samples/", ("LICENSE", "")),
            ),
        ),
        license="MIT (repository); cite each style's original source",
        note="the sample release; the full corpus is billray110/corpus-of-diverse-styles on the Hub",
    ),
)
