"""The writing domains of the style discrimination benchmark (Jangra et al.), one table:
where each domain's raw data lives, how to read it, its genre, licence and citation.

``build.py`` registers one ``styledisc/<domain>`` dataset per entry and draws a domain's
DD negatives from every other entry (in this order) whose raw folder is present. Reuters,
CCAT50, Enron, arXiv, short stories and Reddit are read by :mod:`.readers`; Amazon Fine
Food Reviews, the Blog Authorship Corpus and the lyrics dump by :mod:`.reviews_blogs_lyrics`.
Those three have author ids (reviewer ``userId``, blogger id, artist) and serve DD and AA;
none is one of Appendix A's exceptions (Reddit, short stories, Reuters), so they use the
default windows: target 200-700 tokens, bag <= 500 tokens, <= 100 units.

Raw folders (``--raw`` = the folder or the corpora root holding it): ``reuters21578/``,
``ccat50/``, ``enron_emails_drndr/``, ``raidar/`` (+ ``detectrl/``), ``detectrl/``,
``m4_llama2/``, ``amazon_fine_food/`` (``finefoods.txt[.gz]`` or ``Reviews.csv[.gz]``),
``blog_authorship_corpus/`` (``blogs/*.xml``), ``lyrics_edenbd/``
(``labeled_lyrics_cleaned.csv[.gz]``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dataset_scripts.steb.blog import URL as BLOG_URL
from dataset_scripts.styledisc.readers import (
    Document,
    read_ccat50,
    read_detectrl_arxiv,
    read_detectrl_stories,
    read_enron_drndr,
    read_m4,
    read_raidar_arxiv,
    read_reuters21578,
)
from dataset_scripts.styledisc.reviews_blogs_lyrics import (
    read_amazon_food,
    read_blogs,
    read_lyrics,
)


@dataclass(frozen=True)
class Domain:
    """One writing domain: where its raw data lives and how to read it."""

    name: str
    pretty: str
    raw_hint: str
    reader: Callable[[Path], tuple[list[Document], Counter[str]]]
    genre: str
    license: str
    source_url: str
    raw_format: str
    source_citation: str
    has_authors: bool
    # further (raw folder, reader) pairs merged into the domain when present
    more_sources: tuple[tuple[str, Callable[[Path], tuple[list[Document], Counter[str]]]], ...] = ()


DOMAINS: dict[str, Domain] = {
    d.name: d
    for d in (
        Domain(
            "reuters",
            "Reuters-21578 bylined news",
            "reuters21578",
            read_reuters21578,
            "newswire",
            "Reuters-21578 Distribution 1.0 (research use)",
            "https://doi.org/10.24432/C52G6M",
            "Reuters-21578 SGML (reut2-NNN.sgm, optionally gzip'ed); author from <AUTHOR>",
            "@misc{lewis1987reuters, title={Reuters-21578 Text Categorization Collection}, "
            "author={Lewis, David}, year={1987}}",
            True,
        ),
        Domain(
            "ccat50",
            "Reuter_50_50 (CCAT50) news authors",
            "ccat50",
            read_ccat50,
            "newswire",
            "UCI Reuter_50_50 (RCV1 subset, research use)",
            "https://archive.ics.uci.edu/dataset/217/reuter+50+50",
            "folders C50train/<author>/*newsML.txt and C50test/<author>/*newsML.txt",
            "@misc{liu2011reuter5050, title={Reuter_50_50}, author={Liu, Zhi}, year={2011}, "
            "howpublished={UCI Machine Learning Repository}}",
            True,
        ),
        Domain(
            "enron",
            "Enron emails (no author ids: DD only)",
            "enron_emails_drndr",
            read_enron_drndr,
            "email",
            "CMU Enron corpus (public record); drndr sample has no licence file",
            "https://github.com/drndr/bert_ent_attack",
            "JSON list [{cleaned_text, folder}] (test_data.json; train_data.json if present)",
            "@inproceedings{klimt2004enron, title={Introducing the Enron Corpus}, "
            "author={Klimt, Bryan and Yang, Yiming}, booktitle={CEAS}, year={2004}}",
            False,
        ),
        Domain(
            "arxiv",
            "arXiv abstracts (no author ids: DD only)",
            "raidar",
            read_raidar_arxiv,
            "scientific",
            "arXiv abstracts via RAIDAR (repository has no licence file)",
            "https://github.com/cvlab-columbia/RaidarLLMDetect",
            "JSON list [{abs, title}] in Arxiv/arXiv_human.json(.gz) (RAIDAR), plus the human "
            "abstracts of DetectRL's Benchmark/Tasks/Task1/multi_domains_arxiv_test.json(.gz) "
            "when ../detectrl is present",
            "@inproceedings{mao2024raidar, title={Raidar: geneRative AI Detection viA "
            "Rewriting}, author={Mao, Chengzhi and Vondrick, Carl and Wang, Hao and Yang, "
            "Junfeng}, booktitle={ICLR}, year={2024}}",
            False,
            (("detectrl", read_detectrl_arxiv),),
        ),
        Domain(
            "short_stories",
            "WritingPrompts short stories (no author ids: DD only)",
            "detectrl",
            read_detectrl_stories,
            "fiction",
            "WritingPrompts via DetectRL (repository has no licence file)",
            "https://github.com/NLP2CT/DetectRL",
            "JSON list [{text, label, data_type, llm_type}] in "
            "Benchmark/Tasks/Task1/multi_domains_writing_prompt_test.json(.gz); human rows",
            "@inproceedings{wu2024detectrl, title={DetectRL: Benchmarking LLM-Generated Text "
            "Detection in Real-World Scenarios}, author={Wu, Junchao and others}, "
            "booktitle={NeurIPS Datasets and Benchmarks}, year={2024}}",
            False,
        ),
        Domain(
            "reddit",
            "Reddit ELI5 answers (no author ids: DD only)",
            "m4_llama2",
            lambda raw: read_m4(raw, "reddit"),
            "forum",
            "Reddit ELI5 via M4 (SemEval-2024 Task 8 data policy)",
            "https://github.com/mbzuai-nlp/M4",
            "JSONL {prompt, human_text, machine_text, model, source, source_ID} in "
            "data/reddit_<model>.jsonl; human_text",
            "@inproceedings{wang2024m4, title={M4: Multi-generator, Multi-domain, and "
            "Multi-lingual Black-Box Machine-Generated Text Detection}, author={Wang, Yuxia "
            "and others}, booktitle={EACL}, year={2024}}",
            False,
        ),
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
}
GENRES: dict[str, str] = {name: d.genre for name, d in DOMAINS.items()}
