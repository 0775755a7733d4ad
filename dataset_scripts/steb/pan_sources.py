"""What the PAN shared-task datasets of STEB share: the download page, licence, raw
formats and the overview papers to cite (PAN13-PAN26), for the builder modules
``pan_av``, ``pan_style_change``, ``retrieval_sets`` and ``ai_detection``."""

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

# language of a multilingual PAN set, by the name its file names use
LANGUAGES = {
    "dutch": "nl",
    "greek": "el",
    "spanish": "es",
    "french": "fr",
    "italian": "it",
    "polish": "pl",
}
