"""Languages as MTEB writes them: ISO 639-3 code and ISO 15924 script, ``eng-Latn``.

The dataset registry gives a dataset's languages as ISO 639-1 codes (``en``); results
(records, ``model_meta.json``, the MTEB export) carry MTEB's form. :data:`ISO_639_1`
lists every code the registry uses (``tests/results/test_mteb_export.py`` checks that).
"""

from __future__ import annotations

#: ISO 639-1 -> MTEB's ``<ISO 639-3>-<ISO 15924 script>``
ISO_639_1 = {
    "de": "deu-Latn",
    "el": "ell-Grek",
    "en": "eng-Latn",
    "es": "spa-Latn",
    "fr": "fra-Latn",
    "it": "ita-Latn",
    "nl": "nld-Latn",
    "pl": "pol-Latn",
    "pt": "por-Latn",
    "ru": "rus-Cyrl",
}


def mteb_language(code: str) -> str:
    """One language code as MTEB writes it (a code already in that form is kept);
    ValueError for a code this table does not know."""
    if "-" in code:
        return code
    try:
        return ISO_639_1[code]
    except KeyError:
        raise ValueError(
            f"language {code!r}: no ISO 639-3/script form known (add it to "
            "evaluators/records/languages.py)"
        ) from None


def dataset_languages(dataset_id: str, repo: str = "") -> list[str]:
    """The languages of a registered dataset (by its STEB id or its repo), as MTEB
    writes them; empty for a dataset the registry does not know."""
    from dataset_scripts.registry import all_datasets

    specs = all_datasets()
    if dataset_id in specs:
        codes = list(specs[dataset_id].language)
    else:  # a release repo (or repo:config): the languages of the datasets it holds
        codes = sorted({c for s in specs.values() if repo and s.repo == repo for c in s.language})
    return [mteb_language(c) for c in codes]
