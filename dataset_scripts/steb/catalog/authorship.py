"""STEB authorship and AI-text-detection datasets (App. C.7-C.9): catalogue entries.

``DATASETS`` holds the 58 entries of STEB's 96 that belong to this family: the 25
predefined-pair authorship-verification / style-change sets, the 4 authorship-retrieval
sets and the 29 AI-text-detection (ATD) clustering sets, with their Table 15 counts.

``MULTILINGUAL`` holds the 17 non-English PAN sets of the paper's multilingual analysis
(Sec. 5.3, Table 5, App. F): 13 PAN13/14/15 authorship-verification sets (Dutch, Greek,
Spanish) and 4 PAN18 cross-domain authorship-attribution sets (French, Italian, Polish,
Spanish). STEB excludes them from its 96 and from the main scores, and Table 15 has no
row for them, so they are not in ``DATASETS``: the builder modules register them with
their language and ``extra["in_steb_96"] = False``; their sample counts are unknown
until built (``counts`` gives the task type only).
"""

from __future__ import annotations

from dataset_scripts.steb.catalog import CLUSTERING, PREDEFINED, RETRIEVAL, SampleCount
from dataset_scripts.steb.catalog import StebDataset as _Entry

PAN_DATA_URL = "https://pan.webis.de/data.html"
PAN_LICENSE = "CC BY 4.0 (PAN shared-task data, research use; STEB App. C.7)"
PAN_AV_FORMAT = (
    "PAN13-15: one folder per problem (e.g. EN001/) with known*.txt and unknown.txt plus a "
    "truth.txt of '<problem> Y|N' lines; PAN20/21: pairs.jsonl ({id, fandoms, pair}) + "
    "truth.jsonl ({id, same, authors})"
)
PAN_SC_FORMAT = (
    "PAN style change: problem-N.txt (one paragraph, or sentence for the sentence-level "
    "sets, per line) + truth-problem-N.json ({authors, changes[, paragraph-authors]}); "
    "PAN18: problem-N.txt + problem-N.truth ({changes, positions})"
)
IDIOLECT = ("idiolect",)

PAN13_CITATION = """@inproceedings{juola2013overview,
  title     = {Overview of the Author Identification Task at {PAN} 2013},
  author    = {Juola, Patrick and Stamatatos, Efstathios},
  booktitle = {CLEF 2013 Working Notes},
  year      = {2013}
}"""
PAN14_CITATION = """@inproceedings{stamatatos2014overview,
  title     = {Overview of the Author Identification Task at {PAN} 2014},
  author    = {Stamatatos, Efstathios and Daelemans, Walter and Verhoeven, Ben and
               Potthast, Martin and Stein, Benno and Juola, Patrick and
               Sanchez-Perez, Miguel A. and Barr{\\'o}n-Cede{\\~n}o, Alberto},
  booktitle = {CLEF 2014 Working Notes},
  year      = {2014}
}"""
PAN15_CITATION = """@inproceedings{stamatatos2015overview,
  title     = {Overview of the Author Identification Task at {PAN} 2015},
  author    = {Stamatatos, Efstathios and Daelemans, Walter and Verhoeven, Ben and
               Juola, Patrick and L{\\'o}pez-L{\\'o}pez, Aurelio and Potthast, Martin and
               Stein, Benno},
  booktitle = {CLEF 2015 Working Notes},
  year      = {2015}
}"""
PAN18_CITATION = """@inproceedings{stamatatos2018overview,
  title     = {Overview of {PAN} 2018: Author Identification, Author Profiling, and
               Author Obfuscation},
  author    = {Stamatatos, Efstathios and Rangel, Francisco and Tschuggnall, Michael and
               Stein, Benno and Kestemont, Mike and Rosso, Paolo and Potthast, Martin},
  booktitle = {Experimental IR Meets Multilinguality, Multimodality, and Interaction
               (CLEF 2018)},
  year      = {2018}
}"""
PAN20_CITATION = """@inproceedings{bevendorff2020overview,
  title     = {Overview of {PAN} 2020: Authorship Verification, Celebrity Profiling,
               Profiling Fake News Spreaders on Twitter, and Style Change Detection},
  author    = {Bevendorff, Janek and others},
  booktitle = {CLEF 2020},
  year      = {2020}
}"""
PAN21_CITATION = """@inproceedings{bevendorff2021overview,
  title     = {Overview of {PAN} 2021: Authorship Verification, Profiling Hate Speech
               Spreaders on Twitter, and Style Change Detection},
  author    = {Bevendorff, Janek and others},
  booktitle = {CLEF 2021},
  year      = {2021}
}"""
PAN_SC_CITATIONS = {
    22: """@inproceedings{bevendorff2022overview,
  title     = {Overview of {PAN} 2022: Authorship Verification, Profiling Irony and
               Stereotype Spreaders, and Style Change Detection},
  author    = {Bevendorff, Janek and others},
  booktitle = {CLEF 2022},
  year      = {2022}
}""",
    23: """@inproceedings{bevendorff2023overview,
  title     = {Overview of {PAN} 2023: Authorship Verification, Multi-Author Writing Style
               Analysis, Profiling Cryptocurrency Influencers, and Trigger Detection},
  author    = {Bevendorff, Janek and others},
  booktitle = {CLEF 2023},
  year      = {2023}
}""",
    24: """@inproceedings{ayele2024overview,
  title     = {Overview of {PAN} 2024: Multi-Author Writing Style Analysis, Multilingual
               Text Detoxification, Oppositional Thinking Analysis, and Generative {AI}
               Authorship Verification},
  author    = {Ayele, Abinew Ali and others},
  booktitle = {CLEF 2024},
  year      = {2024}
}""",
    25: """@inproceedings{bevendorff2025overview,
  title     = {Overview of {PAN} 2025},
  author    = {Bevendorff, Janek and others},
  booktitle = {CLEF 2025},
  year      = {2025}
}""",
    26: """@inproceedings{bevendorff2026overview,
  title     = {Overview of {PAN} 2026},
  author    = {Bevendorff, Janek and others},
  booktitle = {CLEF 2026},
  year      = {2026}
}""",
}


def _pairs(trials: int) -> dict[str, SampleCount]:
    return {PREDEFINED: SampleCount(trials, 2, 2 * trials)}


def _av(name: str, trials: int, summary: str, citation: str, **extra: object) -> _Entry:
    return _Entry(
        name=name,
        summary=summary,
        bucket="authorship",
        definitional=IDIOLECT,
        counts=_pairs(trials),
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN_AV_FORMAT,
        citation=citation,
        extra={"application": "AV", **extra},
    )


def _sc(year: int, level: str, trials: int) -> _Entry:
    unit = "sentences" if level == "sentence" else "paragraphs"
    return _Entry(
        name=f"pan{year}_style_change_{level}" if level else f"pan{year}_style_change",
        summary=f"PAN{year} style change detection{f' ({level})' if level else ''}: consecutive "
        f"{unit} of multi-author documents as same/different-author pairs.",
        bucket="authorship",
        definitional=IDIOLECT,
        counts=_pairs(trials),
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN_SC_FORMAT,
        citation=PAN_SC_CITATIONS.get(year, PAN18_CITATION),
        extra={"application": "AV", "difficulty": level or "n/a", "unit": unit},
    )


ENRON = _Entry(
    name="enron_authorship_corpus",
    summary="Halvani's 80-author Enron e-mail authorship-verification corpus: four known "
    "e-mails concatenated with blank lines vs. one questioned e-mail.",
    bucket="authorship",
    definitional=IDIOLECT,
    counts=_pairs(80),
    source_url="https://data.mendeley.com/datasets/n77w7mzhc5/1",
    license="CC BY 4.0 (STEB App. C.7)",
    raw_format="Halvani's Enron AV corpus: 80 cases of 4 known + 1 unknown e-mail; the "
    "idiolect R package's enron.sample (quanteda corpus .rda with author/textname docvars) "
    "is read too",
    citation="""@phdthesis{halvani2021practice,
  title  = {Practice-Oriented Authorship Verification},
  author = {Halvani, Oren},
  school = {Technical University of Darmstadt},
  year   = {2021}
}""",
    extra={"application": "AV"},
)

AV_SETS = (
    _av(
        "pan13_authorship_verification_english_test",
        30,
        "PAN13 authorship verification, English test set: known texts vs. an unknown text.",
        PAN13_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan14_authorship_verification_corpus1_english_essays_test",
        100,
        "PAN14 authorship verification, test corpus 1, English essays.",
        PAN14_CITATION,
        problem_prefixes=("EE",),
    ),
    _av(
        "pan14_authorship_verification_corpus1_english_novels_test",
        100,
        "PAN14 authorship verification, test corpus 1, English novels.",
        PAN14_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan14_authorship_verification_corpus2_english_essays_test",
        200,
        "PAN14 authorship verification, test corpus 2, English essays.",
        PAN14_CITATION,
        problem_prefixes=("EE",),
    ),
    _av(
        "pan14_authorship_verification_corpus2_english_novels_test",
        200,
        "PAN14 authorship verification, test corpus 2, English novels.",
        PAN14_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan15_authorship_verification_english_test",
        500,
        "PAN15 cross-topic/cross-genre authorship verification, English test set.",
        PAN15_CITATION,
        problem_prefixes=("EN",),
    ),
    _av(
        "pan20_authorship_verification_test",
        500,
        "PAN20 fanfiction authorship verification test set, balanced 500-pair seeded "
        "subsample (250 same-author, 250 different-author).",
        PAN20_CITATION,
    ),
    _av(
        "pan21_authorship_verification_test",
        500,
        "PAN21 fanfiction authorship verification test set, balanced 500-pair seeded "
        "subsample (250 same-author, 250 different-author).",
        PAN21_CITATION,
    ),
)

STYLE_CHANGE_SETS = (
    _sc(18, "", 1492),
    _sc(22, "advanced", 9537),
    _sc(22, "basic", 2141),
    _sc(22, "sentence", 22105),
    _sc(23, "easy", 2826),
    _sc(23, "hard", 4112),
    _sc(23, "medium", 7013),
    _sc(24, "easy", 2471),
    _sc(24, "hard", 4131),
    _sc(24, "medium", 4592),
    _sc(25, "easy", 10247),
    _sc(25, "hard", 10648),
    _sc(25, "medium", 12759),
    _sc(26, "easy", 71108),
    _sc(26, "hard", 54141),
    _sc(26, "medium", 24406),
)

LUAR_FORMAT = (
    "LUAR split format: queries.jsonl and targets.jsonl, one author per line "
    "({author_id, syms: [documents], ...})"
)
LUAR_CITATION = """@inproceedings{riverasoto2021learning,
  title     = {Learning Universal Authorship Representations},
  author    = {Rivera-Soto, Rafael A. and Miano, Olivia Elizabeth and Ordonez, Juanita and
               Chen, Barry Y. and Khan, Aleem and Bishop, Marcus and Andrews, Nicholas},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021},
  pages     = {913--919}
}"""


def _retrieval(name: str, authors: int, per: int, total: int, summary: str, **kw: object) -> _Entry:
    return _Entry(
        name=name,
        summary=summary,
        bucket="authorship",
        definitional=IDIOLECT,
        counts={RETRIEVAL: SampleCount(authors, per, total)},
        extra={"application": "AR"},
        **kw,  # type: ignore[arg-type]
    )


PAN18_AA_FORMAT = (
    "PAN18 cross-domain AA: collection-info.json; per problem problem-info.json, "
    "candidateNNNNN/known*.txt, unknown/unknown*.txt and ground-truth.json"
)

RETRIEVAL_SETS = (
    _retrieval(
        "amazon",
        500,
        195,
        97_787,
        "Amazon review authorship retrieval (LUAR test split, 500-author STEB subsample): "
        "several reviews per query and per target.",
        source_url="https://github.com/LLNL/LUAR",
        license="Amazon review data terms (research use); STEB redistributes the "
        "subsampled split for research only",
        raw_format=LUAR_FORMAT,
        citation=LUAR_CITATION,
    ),
    _retrieval(
        "fanfiction",
        500,
        86,
        43_411,
        "Fanfiction authorship retrieval (500-author STEB subsample): several stories per "
        "query and per target.",
        source_url="https://pan.webis.de/data.html",
        license="research use (STEB redistribution)",
        raw_format=LUAR_FORMAT,
        citation=LUAR_CITATION,
    ),
    _retrieval(
        "pan18_cross_domain_authorship_attribution_english",
        50,
        5,
        259,
        "PAN18 cross-domain authorship attribution (English): unknown fanfics as queries, "
        "each candidate's known texts concatenated as its target.",
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN18_AA_FORMAT,
        citation=PAN18_CITATION,
    ),
    _retrieval(
        "stackexchange_retrieval",
        500,
        125,
        62_980,
        "StackExchange authorship retrieval (500 random authors across communities): "
        "several posts per query and per target.",
        source_url="https://archive.org/download/stackexchange",
        license="CC BY-SA 3.0",
        raw_format=LUAR_FORMAT,
    ),
)

DETECTRL_CITATION = """@inproceedings{wu2024detectrl,
  title     = {{DetectRL}: Benchmarking {LLM}-Generated Text Detection in Real-World
               Scenarios},
  author    = {Wu, Junchao and Zhan, Runzhe and Wong, Derek F. and Yang, Shu and
               Yang, Xinyi and Yuan, Yulin and Chao, Lidia S.},
  booktitle = {NeurIPS 2024 Datasets and Benchmarks Track},
  year      = {2024}
}"""
M4_CITATION = """@inproceedings{wang2024m4,
  title     = {M4: Multi-generator, Multi-domain, and Multi-lingual Black-Box
               Machine-Generated Text Detection},
  author    = {Wang, Yuxia and others},
  booktitle = {Proceedings of EACL 2024},
  year      = {2024}
}"""
MAGE_CITATION = """@inproceedings{li2024mage,
  title     = {{MAGE}: Machine-generated Text Detection in the Wild},
  author    = {Li, Yafu and others},
  booktitle = {Proceedings of ACL 2024},
  year      = {2024}
}"""
GEDE_CITATION = """@article{gehring2025gede,
  title   = {Assessing {LLM} Text Detection in Educational Contexts},
  author  = {Gehring, Lukas and Paa{\\ss}en, Benjamin},
  year    = {2025}
}"""


def _atd(
    name: str,
    classes: int,
    per: int,
    total: int,
    summary: str,
    *,
    adversarial: bool = False,
    **kw: object,
) -> _Entry:
    return _Entry(
        name=name,
        summary=summary,
        bucket="authorship",
        definitional=(),
        counts={CLUSTERING: SampleCount(classes, per, total)},
        extra={"application": "ATD (Adv.)" if adversarial else "ATD"},
        **kw,  # type: ignore[arg-type]
    )


DETECTRL_FORMAT = (
    'DetectRL Benchmark/Tasks/Task*/<name>_test.json: a JSON list of {text, label: "human"|'
    '"llm", data_type, llm_type}'
)
_DETECTRL = dict(
    source_url="https://github.com/NLP2CT/DetectRL",
    license="no licence file in the DetectRL repository (NeurIPS 2024 D&B benchmark; research use)",
    raw_format=DETECTRL_FORMAT,
    citation=DETECTRL_CITATION,
)
_M4 = dict(
    source_url="https://github.com/mbzuai-nlp/M4",
    license="research use (SemEval-2024 Task 8 data policy)",
    raw_format="M4 data/<domain>_<generator>.jsonl: {prompt, human_text, machine_text, model, "
    "source, source_ID}",
    citation=M4_CITATION,
)
_MAGE = dict(
    source_url="https://huggingface.co/datasets/yaful/MAGE",
    license="public use (yaful/MAGE on the Hugging Face Hub)",
    raw_format="yaful/MAGE export (csv, jsonl or parquet) with columns text, label, src "
    "(src = <domain>_human or <domain>_machine_<method>_<generator>)",
    citation=MAGE_CITATION,
)
_PAN_ATD = dict(source_url=PAN_DATA_URL, license=PAN_LICENSE)

ATD_SETS = (
    _atd(
        "gede_essay_detection",
        4,
        200,
        800,
        "GEDE: human student essays vs. essays generated by three LLMs at several levels of "
        "contribution, labelled by generator.",
        source_url="https://github.com/lukasgehring/Assessing-LLM-Text-Detection-in-"
        "Educational-Contexts",
        license="CC BY-NC-SA 4.0",
        raw_format="GEDE run folders datasets/<corpus>/[dipper/]<model>/<run>/{data.csv, "
        "info.json}: ';'-separated CSV (index, question, human, llm); info.json gives the model",
        citation=GEDE_CITATION,
    ),
    *(
        _atd(
            f"machine_text_detection_DetectRL_{domain}",
            5,
            200,
            1000,
            f"DetectRL {domain.replace('_', ' ')}: human text vs. four LLMs (ChatGPT, "
            "Claude-instant, Google-PaLM, Llama-2-70b), labelled by generator.",
            **_DETECTRL,  # type: ignore[arg-type]
        )
        for domain in ("arxiv", "direct_prompt", "writing_prompt", "xsum", "yelp_review")
    ),
    *(
        _atd(
            f"machine_text_detection_DetectRL_{attack}_attacks",
            2,
            200,
            400,
            f"DetectRL {attack} attacks: human vs. attacked LLM text (binary labels).",
            adversarial=True,
            **_DETECTRL,  # type: ignore[arg-type]
        )
        for attack in ("paraphrase", "perturbation", "prompt")
    ),
    *(
        _atd(
            f"machine_text_detection_M4_{domain}",
            classes,
            200,
            classes * 200,
            f"M4 {domain}: human text vs. the domain's generators (BloomZ skipped), "
            "labelled by generator.",
            **_M4,  # type: ignore[arg-type]
        )
        for domain, classes in (
            ("arxiv", 6),
            ("peerread", 6),
            ("reddit", 6),
            ("wikihow", 5),
            ("wikipedia", 5),
        )
    ),
    *(
        _atd(
            f"machine_text_detection_MAGE_{domain}",
            28,
            per,
            28 * per,
            f"MAGE {domain}: human text vs. 27 generators (generation methods collapsed).",
            **_MAGE,  # type: ignore[arg-type]
        )
        for domain, per in (
            ("cmv", 60),
            ("eli5", 73),
            ("hswag", 66),
            ("roct", 76),
            ("sci_gen", 36),
            ("squad", 55),
            ("tldr", 57),
            ("wp", 70),
            ("xsum", 86),
            ("yelp", 42),
        )
    ),
    _atd(
        "machine_text_detection_PAN24_news",
        14,
        200,
        2800,
        "PAN24 generative authorship detection (news): human articles vs. 13 LLMs, labelled "
        "by generator.",
        raw_format="PAN24 generative-authorship-news: one <generator>.jsonl per source "
        "(human.jsonl and machines/*.jsonl) with {id, text}",
        citation=PAN_SC_CITATIONS[24],
        **_PAN_ATD,  # type: ignore[arg-type]
    ),
    *(
        _atd(
            f"machine_text_detection_PAN25_26_{genre}",
            classes,
            per,
            classes * per,
            f"PAN25/26 generative AI detection (task 1) validation data, {genre}: human vs. "
            "participating LLMs, labelled by the model field.",
            raw_format="PAN25/26 task 1 dataset.jsonl: {id, text, model, genre, label}",
            citation=PAN_SC_CITATIONS[25],
            **_PAN_ATD,  # type: ignore[arg-type]
        )
        for genre, classes, per in (("essays", 13, 25), ("fiction", 12, 25), ("news", 14, 59))
    ),
    _atd(
        "machine_text_detection_PAN25_collaborative",
        6,
        200,
        1200,
        "PAN25 human-AI collaborative text classification (task 2 dev set): six collaboration "
        "categories.",
        raw_format="PAN25 task 2 jsonl: {id, text, label, label_text}",
        citation=PAN_SC_CITATIONS[25],
        **_PAN_ATD,  # type: ignore[arg-type]
    ),
)

DATASETS: tuple[_Entry, ...] = (
    ENRON,
    *AV_SETS,
    *STYLE_CHANGE_SETS,
    *RETRIEVAL_SETS,
    *ATD_SETS,
)

# --- the multilingual sets (not among the 96; registered by the builder modules) -------

_LANG = {"dutch": "nl", "greek": "el", "spanish": "es", "french": "fr", "italian": "it"}
_LANG["polish"] = "pl"


def _multilingual_av(name: str, language: str, prefixes: tuple[str, ...], citation: str) -> _Entry:
    return _Entry(
        name=name,
        summary=f"{name.split('_')[0].upper()} authorship verification, {language.title()} "
        "(multilingual STEB subset; not in the 96 or the main scores).",
        bucket="authorship",
        definitional=(),
        counts={},
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN_AV_FORMAT,
        citation=citation,
        language=(_LANG[language],),
        extra={
            "application": "AV",
            "problem_prefixes": prefixes,
            "in_steb_96": False,
            "multilingual": True,
            "task_types": (PREDEFINED,),
        },
    )


MULTILINGUAL_AV = (
    _multilingual_av("pan13_authorship_verification_greek_test", "greek", ("GR",), PAN13_CITATION),
    _multilingual_av(
        "pan13_authorship_verification_spanish_test", "spanish", ("SP",), PAN13_CITATION
    ),
    *(
        _multilingual_av(
            f"pan14_authorship_verification_{corpus}_{language}_{genre}_test",
            language,
            (prefix,),
            PAN14_CITATION,
        )
        for corpus in ("corpus1", "corpus2")
        for language, genre, prefix in (
            ("dutch", "essays", "DE"),
            ("dutch", "reviews", "DR"),
            ("greek", "articles", "GR"),
            ("spanish", "articles", "SP"),
        )
    ),
    *(
        _multilingual_av(
            f"pan15_authorship_verification_{language}_test", language, (prefix,), PAN15_CITATION
        )
        for language, prefix in (("dutch", "DU"), ("greek", "GR"), ("spanish", "SP"))
    ),
)

MULTILINGUAL_AA = tuple(
    _Entry(
        name=f"pan18_cross_domain_authorship_attribution_{language}",
        summary=f"PAN18 cross-domain authorship attribution ({language.title()}; multilingual "
        "STEB subset, not in the 96): unknown texts as queries, concatenated known texts "
        "as targets.",
        bucket="authorship",
        definitional=(),
        counts={},
        source_url=PAN_DATA_URL,
        license=PAN_LICENSE,
        raw_format=PAN18_AA_FORMAT,
        citation=PAN18_CITATION,
        language=(_LANG[language],),
        extra={
            "application": "AR",
            "in_steb_96": False,
            "multilingual": True,
            "task_types": (RETRIEVAL,),
        },
    )
    for language in ("french", "italian", "polish", "spanish")
)

MULTILINGUAL: tuple[_Entry, ...] = (*MULTILINGUAL_AV, *MULTILINGUAL_AA)
