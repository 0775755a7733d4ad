"""STEB order-alignment datasets (App. C.1-C.3): catalogue entries."""

from __future__ import annotations

from dataset_scripts.steb.catalog import ORDER, SampleCount, StebDataset

STEL_CITATION = """@inproceedings{wegmann-nguyen-2021-capture,
  title     = {Does It Capture {STEL}? A Modular, Similarity-based Linguistic Style Evaluation Framework},
  author    = {Wegmann, Anna and Nguyen, Dong},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021},
  pages     = {7109--7130}
}"""

DATASETS: tuple[StebDataset, ...] = (
    StebDataset(
        name="STEL_feature",
        summary="STEL parallel sentence pairs for linguistic features (contraction, emotives, "
        "number substitution), as STEB order-alignment data.",
        bucket="feature",
        definitional=("linguistic_features", "content_independence"),
        counts={ORDER: SampleCount(3, 200, 600)},
        source_url="https://github.com/nlpsoc/STEL",
        license="MIT",
        raw_format="STEL quadruple TSV files (Data/STEL/characteristics|dimensions/*.tsv)",
        citation=STEL_CITATION,
    ),
    StebDataset(
        name="STEL_register",
        summary="STEL parallel sentence pairs for registers (formality, simplicity), as STEB "
        "order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(2, 392, 784)},
        source_url="https://github.com/nlpsoc/STEL",
        license="MIT; the formality sample derives from GYAFC (Yahoo Answers) under the Yahoo "
        "Webscope terms (research use)",
        raw_format="STEL quadruple TSV files (Data/STEL/characteristics|dimensions/*.tsv)",
        citation=STEL_CITATION,
    ),
)
