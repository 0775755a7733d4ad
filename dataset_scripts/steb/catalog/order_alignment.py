"""STEB order-alignment datasets (App. C.1-C.5): catalogue entries.

Buckets follow Table 10, definitional clusters Table 13, counts Table 15 (texts: every
sequence contributes one text per position). ``corpus-of-diverse-styles`` also has an
order-alignment task but is catalogued with the clustering datasets (it serves three
task types)."""

from __future__ import annotations

from dataset_scripts.steb.catalog import ORDER, SampleCount, StebDataset

STEL_CITATION = """@inproceedings{wegmann-nguyen-2021-capture,
  title     = {Does It Capture {STEL}? A Modular, Similarity-based Linguistic Style Evaluation Framework},
  author    = {Wegmann, Anna and Nguyen, Dong},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021},
  pages     = {7109--7130}
}"""

SYNTHSTEL_CITATION = """@inproceedings{patel-etal-2025-styledistance,
  title     = {{StyleDistance}: Stronger Content-Independent Style Embeddings with Synthetic
               Parallel Examples},
  author    = {Patel, Ajay and Zhu, Jiacheng and Qiu, Justin and Horvitz, Zachary and
               Apidianaki, Marianna and McKeown, Kathleen and Callison-Burch, Chris},
  booktitle = {Proceedings of NAACL 2025},
  year      = {2025}
}"""

STYLEPTB_CITATION = """@inproceedings{lyu-etal-2021-styleptb,
  title     = {{StylePTB}: A Compositional Benchmark for Fine-grained Controllable Text Style
               Transfer},
  author    = {Lyu, Yiwei and Liang, Paul Pu and Pham, Hai and Hovy, Eduard and
               P{\\'o}czos, Barnab{\\'a}s and Salakhutdinov, Ruslan and Morency, Louis-Philippe},
  booktitle = {Proceedings of NAACL 2021},
  year      = {2021}
}"""

AAVE_CITATION = """@inproceedings{groenwold-etal-2020-investigating,
  title     = {Investigating {A}frican-{A}merican {V}ernacular {E}nglish in Transformer-Based
               Text Generation},
  author    = {Groenwold, Sophie and Ou, Lily and Parekh, Aesha and Honnavalli, Samhita and
               Levy, Sharon and Mirza, Diba and Wang, William Yang},
  booktitle = {Proceedings of EMNLP 2020},
  year      = {2020}
}"""

ONESTOP_CITATION = """@inproceedings{vajjala-lucic-2018-onestopenglish,
  title     = {{O}ne{S}top{E}nglish corpus: A new corpus for automatic readability assessment
               and text simplification},
  author    = {Vajjala, Sowmya and Lu{\\v{c}}i{\\'c}, Ivana},
  booktitle = {Proceedings of the Thirteenth Workshop on Innovative Use of NLP for Building
               Educational Applications},
  pages     = {297--304},
  year      = {2018}
}"""

GRADED_FORMALITY_CITATION = """@inproceedings{barbieri-etal-2020-tweeteval,
  title     = {{T}weet{E}val: Unified Benchmark and Comparative Evaluation for Tweet
               Classification},
  author    = {Barbieri, Francesco and Camacho-Collados, Jose and Espinosa Anke, Luis and
               Neves, Leonardo},
  booktitle = {Findings of EMNLP 2020},
  year      = {2020}
}
@inproceedings{almeida-etal-2011-sms,
  title     = {Contributions to the Study of {SMS} Spam Filtering: New Collection and Results},
  author    = {Almeida, Tiago A. and G{\\'o}mez Hidalgo, Jos{\\'e} Mar{\\'i}a and Yamakami, Akebo},
  booktitle = {Proceedings of the 11th ACM Symposium on Document Engineering},
  year      = {2011}
}"""

ASSET_CITATION = """@inproceedings{alva-manchego-etal-2020-asset,
  title     = {{ASSET}: A Dataset for Tuning and Evaluation of Sentence Simplification Models
               with Multiple Rewriting Transformations},
  author    = {Alva-Manchego, Fernando and Martin, Louis and Bordes, Antoine and Scarton,
               Carolina and Sagot, Beno{\\^i}t and Specia, Lucia},
  booktitle = {Proceedings of ACL 2020},
  year      = {2020}
}"""

SHAKESPEARE_CITATION = """@inproceedings{xu-etal-2012-paraphrasing,
  title     = {Paraphrasing for Style},
  author    = {Xu, Wei and Ritter, Alan and Dolan, Bill and Grishman, Ralph and Cherry, Colin},
  booktitle = {Proceedings of COLING 2012},
  pages     = {2899--2914},
  year      = {2012}
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
    StebDataset(
        name="SynthSTEL_feature",
        summary="SynthSTEL (GPT-4 near-exact paraphrases differing in one style feature), its "
        "32 linguistic features, as STEB order-alignment data.",
        bucket="feature",
        definitional=("linguistic_features", "content_independence"),
        counts={ORDER: SampleCount(32, 200, 6_400)},
        source_url="https://huggingface.co/datasets/StyleDistance/synthstel",
        license="MIT",
        raw_format="Hub dataset snapshot: data/train-00000-of-00001.parquet and "
        "data/test-00000-of-00001.parquet with columns positive, negative, feature, "
        "feature_clean",
        citation=SYNTHSTEL_CITATION,
    ),
    StebDataset(
        name="StylePTB",
        summary="StylePTB single-transfer pairs (Penn Treebank sentences before/after one "
        "syntactic or lexical transfer), 15 of its 21 transfers, as STEB order-alignment data.",
        bucket="feature",
        definitional=("linguistic_features", "content_independence"),
        counts={ORDER: SampleCount(14, 50, 700)},
        source_url="https://github.com/lvyiwei1/StylePTB",
        license="CC-BY-4.0",
        raw_format="one folder per 3-letter transfer code with train/valid/test JSON Lines "
        '({"src": ..., "trg": ...}; tokenised, rare words as unk), as in '
        "github.com/lvyiwei1/DiffuSeq_StylePTB datasets/<CODE>/{train,valid,test}.jsonl",
        citation=STYLEPTB_CITATION,
    ),
    StebDataset(
        name="twitter_aave_sae",
        summary="Groenwold et al. (2020): African-American English tweets and their "
        "intent-equivalent Standard American English rewrites, as STEB order-alignment data.",
        bucket="dialect",
        definitional=("dialect", "content_independence"),
        counts={ORDER: SampleCount(1, 400, 400)},
        source_url="https://aclanthology.org/attachments/2020.emnlp-main.473."
        "OptionalSupplementaryMaterial.zip",
        license="no licence file; research use only (paper supplementary material). The AAVE "
        "side are TwitterAAE tweets (Blodgett et al. 2016) under the Twitter terms of service; "
        "the official repository omits them for that reason",
        raw_format="two line-aligned UTF-8 text files, aave_samples.txt and sae_samples.txt "
        "(one tweet per line, line i of one file pairs with line i of the other)",
        citation=AAVE_CITATION,
    ),
    StebDataset(
        name="SynthSTEL_register",
        summary="SynthSTEL (GPT-4 near-exact paraphrases differing in one style feature), its "
        "8 register features (e.g. formal tone, offensive language, sarcasm), as STEB "
        "order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(8, 200, 1_600)},
        source_url="https://huggingface.co/datasets/StyleDistance/synthstel",
        license="MIT",
        raw_format="Hub dataset snapshot: data/train-00000-of-00001.parquet and "
        "data/test-00000-of-00001.parquet with columns positive, negative, feature, "
        "feature_clean",
        citation=SYNTHSTEL_CITATION,
    ),
    StebDataset(
        name="OneStopEnglishCorpus",
        summary="OneStopEnglish news texts rewritten by teachers at three reading levels; "
        "sentence triples advanced > intermediate > elementary, as STEB order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(1, 600, 600)},
        source_url="https://github.com/nishkalavallabhi/OneStopEnglishCorpus",
        license="CC-BY-SA-4.0",
        raw_format="Sentence-Aligned/{ADV-INT,ELE-INT,ADV-ELE}.txt: blocks of two aligned "
        "sentences (first level, second level) separated by a line of seven asterisks",
        citation=ONESTOP_CITATION,
    ),
    StebDataset(
        name="graded_formality",
        summary="Non-offensive TweetEval tweets and non-spam SMS, each rewritten four times "
        "with increasing formality by gpt-5-mini: five-level formality sequences, as STEB "
        "order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(2, 1_000, 2_000)},
        source_url="https://huggingface.co/datasets/cardiffnlp/tweet_eval and "
        "https://huggingface.co/datasets/ucirvine/sms_spam (originals); the rewrites are "
        "released with STEB",
        license="derived data: TweetEval tweets (Twitter terms of service, research use) and "
        "the UCI SMS Spam Collection (CC BY 4.0); rewrites generated with gpt-5-mini "
        "(OpenAI terms); no licence stated for the STEB release",
        raw_format="graded_formality.csv (UTF-8, header id,source,level_1,...,level_5; "
        "source tweet_eval or sms_spam; level_1 = original utterance, level_5 = most formal "
        "rewrite)",
        citation=GRADED_FORMALITY_CITATION,
    ),
    StebDataset(
        name="ASSET",
        summary="ASSET Wikipedia sentences paired with one of their ten crowdsourced "
        "simplifications (simple > complex), as STEB order-alignment data.",
        bucket="register",
        definitional=("register", "content_independence"),
        counts={ORDER: SampleCount(1, 400, 400)},
        source_url="https://github.com/facebookresearch/asset",
        license="CC BY-NC 4.0 per the facebookresearch/asset repository LICENSE (the raw files "
        "read here); the Hugging Face card (facebook/asset), which STEB cites, shows CC BY-SA "
        "4.0. Non-commercial use is the safe reading",
        raw_format="dataset/asset.{valid,test}.orig and asset.{valid,test}.simp.{0..9}: "
        "line-aligned plain text, one sentence per line",
        citation=ASSET_CITATION,
    ),
    StebDataset(
        name="parallel_shakespeare",
        summary="Shakespeare plays line-aligned with modern English paraphrases (SparkNotes No "
        "Fear Shakespeare, 17 plays), as STEB order-alignment data.",
        bucket="time",
        definitional=("time", "content_independence"),
        counts={ORDER: SampleCount(1, 400, 400)},
        source_url="https://github.com/cocoxu/Shakespeare",
        license="no explicit licence: README_LICENSE only asks to cite Xu et al. (2012); text "
        "scraped from SparkNotes No Fear Shakespeare; research use",
        raw_format="data/align/plays/merged/<play>_{original,modern}.snt.aligned: "
        "line-aligned plain text, one sentence per line",
        citation=SHAKESPEARE_CITATION,
    ),
)
