"""WordNet for METEOR's synonym stage, from Debian's ``wordnet-base`` (no download).

Two gaps between the Debian package and NLTK's reader are bridged at run time: NLTK
only opens corpus paths under ``nltk.data.path``, and its reader opens a ``lexnames``
file that the package does not ship. A cache folder is therefore filled with copies of
``/usr/share/wordnet``'s database files (about 30 MB) plus a generated ``lexnames`` (the 45
lexicographer files of ``man 5 lexnames``: number, name, syntactic category), and the
folder is appended to ``nltk.data.path``.
"""

from __future__ import annotations

import shutil
import warnings
from functools import lru_cache
from pathlib import Path

from dataset_scripts.core.errors import StylebenchError

DEBIAN_WORDNET = Path("/usr/share/wordnet")

# WordNet 3.0 lexicographer files in file-number order (man 5 lexnames).
LEXNAMES: tuple[str, ...] = (
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


def lexnames_text() -> str:
    """The ``lexnames`` file: ``NN<TAB>name<TAB>category`` per line."""
    return "".join(
        f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES)
    )


def _debian_reader_class():
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class DebianWordNetReader(WordNetCorpusReader):
        """NLTK's reader without the WordNet-version mapping for the Open Multilingual
        WordNet (it needs ``index.sense`` of a second, downloaded copy; METEOR only
        uses English synsets)."""

        def map_wn(self, version: str = "wordnet") -> None:
            return None

    return DebianWordNetReader


def _cache_root() -> Path:
    from evaluators.paths import cache_root  # the one rule for stylebench's cache folder

    return cache_root() / "nltk_data"


@lru_cache(maxsize=1)
def load_wordnet(source: str = str(DEBIAN_WORDNET)):
    """An NLTK ``WordNetCorpusReader`` over the Debian WordNet 3.0 files."""
    import nltk

    src = Path(source)
    if not (src / "data.noun").is_file():
        raise StylebenchError(
            f"WordNet not found in {src}: install Debian's wordnet-base "
            "(`apt-get install -y wordnet-base`), needed for METEOR"
        )
    root = _cache_root()
    folder = root / "corpora" / "wordnet"
    folder.mkdir(parents=True, exist_ok=True)
    for file in src.iterdir():
        target = folder / file.name
        # copied, not linked: NLTK rejects corpus paths that resolve outside its root
        if file.is_file() and (not target.exists() or target.stat().st_size != file.stat().st_size):
            shutil.copyfile(file, target)
    lexnames = folder / "lexnames"
    if not lexnames.exists():
        lexnames.write_text(lexnames_text())
    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))
    with warnings.catch_warnings():  # "multilingual functions are not available": expected
        warnings.simplefilter("ignore", UserWarning)
        return _debian_reader_class()(str(folder), None)
