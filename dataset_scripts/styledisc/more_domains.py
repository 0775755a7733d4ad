"""``styledisc/amazon_food``, ``styledisc/blogs`` and ``styledisc/lyrics``: the three
domains of Jangra et al. whose corpora are not stored here (issue #9).

Importing this module adds the three domains to :data:`dataset_scripts.styledisc.build.
DOMAINS` (so every domain's DD negatives may also come from them when their raw folders
sit next to the others) and registers their datasets the way ``build.py`` registers the
others. All three have author ids (reviewer ``userId``, blogger id, artist) and serve DD
and AA; none is one of Appendix A's exceptions (Reddit, short stories, Reuters), so they
use the default windows: target 200-700 tokens, bag <= 500 tokens, <= 100 units.

Raw folders (``--raw`` = the folder or the corpora root holding it):
``amazon_fine_food/`` (``finefoods.txt[.gz]`` or ``Reviews.csv[.gz]``),
``blog_authorship_corpus/`` (``blogs/*.xml``), ``lyrics_edenbd/``
(``labeled_lyrics_cleaned.csv[.gz]``).
"""

from __future__ import annotations

from dataset_scripts.core.spec import DatasetSpec
from dataset_scripts.registry import register
from dataset_scripts.steb.blog import URL as BLOG_URL
from dataset_scripts.styledisc import build as _build
from dataset_scripts.styledisc.build import Domain
from dataset_scripts.styledisc.more_readers import read_amazon_food, read_blogs, read_lyrics

MORE_DOMAINS: tuple[Domain, ...] = (
    Domain(
        "amazon_food",
        "Amazon Fine Food Reviews",
        "amazon_fine_food",
        read_amazon_food,
        "review",
        "SNAP web-FineFoods (research use; Kaggle mirror CC0 1.0)",
        "https://snap.stanford.edu/data/web-FineFoods.html",
        "SNAP finefoods.txt(.gz) (Latin-1 records of 'product/productId: ...', "
        "'review/userId: ...', ..., 'review/text: ...' lines separated by blank lines) or "
        "Kaggle Reviews.csv(.gz) (columns Id, ProductId, UserId, ..., Summary, Text); "
        "author = userId, reviews by user 'unknown' dropped",
        "@inproceedings{mcauley2013amateurs, title={From Amateurs to Connoisseurs: Modeling "
        "the Evolution of User Expertise through Online Reviews}, author={McAuley, Julian and "
        "Leskovec, Jure}, booktitle={WWW}, year={2013}}",
        True,
    ),
    Domain(
        "blogs",
        "Blog Authorship Corpus posts",
        "blog_authorship_corpus",
        read_blogs,
        "blog",
        "Blog Authorship Corpus (free for non-commercial research use)",
        BLOG_URL,
        "blogs/<id>.<gender>.<age>.<industry>.<sign>.xml (Latin-1, not well-formed XML); one "
        "text per <post> element, author = blogger id",
        "@inproceedings{schler2006effects, title={Effects of Age and Gender on Blogging}, "
        "author={Schler, Jonathan and Koppel, Moshe and Argamon, Shlomo and Pennebaker, "
        "James W}, booktitle={AAAI Spring Symposium: Computational Approaches to Analyzing "
        "Weblogs}, year={2006}}",
        True,
    ),
    Domain(
        "lyrics",
        "Song lyrics (Edenbd 150k lyrics)",
        "lyrics_edenbd",
        read_lyrics,
        "lyrics",
        "Kaggle dataset licence of Edenbd's dump (see source page)",
        "https://www.kaggle.com/datasets/edenbd/150k-lyrics-labeled-with-spotify-valence",
        "CSV labeled_lyrics_cleaned.csv(.gz): index, artist, seq (lyrics), song, label "
        "(valence); assumption: lyrics from 'seq' (or 'lyrics'/'text'), author = artist "
        "(case-folded)",
        "@misc{edenbd2020lyrics, title={150k Lyrics Labeled with Spotify Valence}, "
        "author={Edenbd}, year={2020}, howpublished={Kaggle}}",
        True,
    ),
)


def _register(domain: Domain) -> DatasetSpec:
    _build.DOMAINS[domain.name] = domain
    _build.GENRES[domain.name] = domain.genre
    return register(
        DatasetSpec(
            hub_id=f"styledisc/{domain.name}",
            pretty_name=f"Style discrimination: {domain.pretty}",
            summary=(
                "Triplets (reference, positive, negative) for the style discrimination "
                "benchmark of Jangra et al.: which candidate is stylistically closer to the "
                f"reference? Domain: {domain.pretty}."
            ),
            builder=_build._make_builder(domain.name),
            license=domain.license,
            source_url=domain.source_url,
            citation=_build.PAPER_CITATION + "\n" + domain.source_citation,
            raw_format=domain.raw_format,
            protocol=_build._protocol(domain),
            raw_hint=domain.raw_hint,
            extra={
                "domain": domain.name,
                "genre": domain.genre,
                "has_authors": domain.has_authors,
                "run_command": f"stylebench styledisc run --dataset built/styledisc__{domain.name}",
            },
        )
    )


for _domain in MORE_DOMAINS:
    if _domain.name not in _build.SPECS:
        _build.SPECS[_domain.name] = _register(_domain)
