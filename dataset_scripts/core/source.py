"""Where a dataset's raw download comes from: the typed declaration (:class:`Source`,
made of one or more :class:`Download`) that each builder module writes beside its
builder, in a module-level ``RAW_SOURCES`` tuple.

A :class:`Source` is named like the folder its builder reads (the datasets'
``raw_hint``, e.g. ``ASSET``); it feeds every dataset with that ``raw_hint`` and those
listed in ``datasets``. Each :class:`Download` is one file fetched from one host:

* ``github``: the archive of a repository at a commit
  (``https://github.com/<owner>/<repo>/archive/<commit>.tar.gz``, whose top folder
  ``<repo>-<commit>/`` is dropped);
* ``zenodo``: one file of a Zenodo record (``https://zenodo.org/records/<id>/files/<name>``);
* ``hub``: files of a Hugging Face dataset repo at a revision (``snapshot_download``);
* ``https``: one plain file at a fixed URL;
* ``manual``: a file a person fetches (a request form, a login, a licence to sign).

``members`` map paths of the download (a folder ends with ``/``; ``""`` is everything)
to paths of the source's raw folder, so that the folder the builder reads is laid out as
the builder expects whatever the host's layout; the helpers below take a plain path for
a member kept at the same path. A source's ``homepage`` defaults to its first download's
page (the repository, the record, the Hub dataset). The SHA-256 and size of every file the
builder reads live in the checksum registry shipped with the code
(``dataset_scripts/sources/checksums.tsv``), not here: ``stylebench sources record``
writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlsplit

KINDS = ("github", "zenodo", "hub", "https", "manual")
ARCHIVES = ("tar.gz", "zip", "")  # "" is a plain file

#: the hosts, and the environment variable that points each at another server (a test's,
#: a proxy's); the Hub's is huggingface_hub's own HF_ENDPOINT
HOSTS = {
    "github": ("https://github.com", "STYLEBENCH_GITHUB_ENDPOINT"),
    "zenodo": ("https://zenodo.org", "STYLEBENCH_ZENODO_ENDPOINT"),
    "hub": ("https://huggingface.co", "HF_ENDPOINT"),
}


@dataclass(frozen=True)
class Download:
    """One file (or, for the Hub, the files ``members`` name) fetched from one host."""

    kind: str
    location: str  # github/hub: "owner/name"; zenodo: the record id; https/manual: a URL
    revision: str = ""  # github/hub: the commit; "" where not pinned (then unverified)
    filename: str = ""  # zenodo/manual: the file's name; https: from the URL
    archive: str = ""  # "tar.gz", "zip" or "" (the file itself is a raw file)
    members: tuple[tuple[str, str], ...] = (("", ""),)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"download kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.archive not in ARCHIVES:
            raise ValueError(f"archive {self.archive!r} is not one of tar.gz, zip or plain")
        if self.kind == "github" and self.archive != "tar.gz":
            raise ValueError("a GitHub download is the repository's tar.gz archive")
        for src, dst in self.members:
            for path in (src, dst):
                if path.startswith("/") or ".." in path.split("/"):
                    raise ValueError(f"member path {path!r} leaves the folder")

    @property
    def pinned(self) -> bool:
        """A GitHub or Hub download at a commit (7+ hex digits), or any other kind (a
        Zenodo record and a URL are fixed; a manual file is checked by its hash)."""
        if self.kind not in ("github", "hub"):
            return True
        rev = self.revision
        return len(rev) >= 7 and all(c in "0123456789abcdef" for c in rev)

    @property
    def name(self) -> str:
        """The downloaded file's name."""
        if self.kind == "github":
            return f"{self.revision}.tar.gz"
        if self.kind == "manual":
            return self.filename or "the release's files"
        if self.kind == "zenodo":
            return self.filename
        if self.kind == "https":
            return self.filename or urlsplit(self.location).path.rsplit("/", 1)[-1]
        return self.filename or self.location.rsplit("/", 1)[-1]

    def site_path(self) -> str:
        """``<host>/<path>`` of the file: its place under a mirror and in the download
        cache (the same layout, so a filled cache can serve as a mirror)."""
        if self.kind == "github":
            return f"github.com/{self.location}/archive/{self.revision}.tar.gz"
        if self.kind == "zenodo":
            return f"zenodo.org/records/{self.location}/files/{self.filename}"
        if self.kind == "hub":
            return f"huggingface.co/datasets/{self.location}/resolve/{self.revision or 'main'}"
        parts = urlsplit(self.location)
        return f"{parts.netloc}{parts.path}"

    def url(self, endpoint: str = "") -> str:
        """The URL to fetch: the host's (or ``endpoint``'s, a mirror or test server)."""
        if self.kind == "github":
            base = endpoint or "https://github.com"
            return f"{base.rstrip('/')}/{self.location}/archive/{self.revision}.tar.gz"
        if self.kind == "zenodo":
            base = endpoint or "https://zenodo.org"
            name = quote(self.filename)
            return f"{base.rstrip('/')}/records/{self.location}/files/{name}?download=1"
        if self.kind == "hub":
            base = endpoint or "https://huggingface.co"
            return f"{base.rstrip('/')}/datasets/{self.location}"
        return self.location

    @property
    def page(self) -> str:
        """The web page of the download: the repository, the record, the Hub dataset or
        the URL itself."""
        if self.kind == "github":
            return f"https://github.com/{self.location}"
        if self.kind == "zenodo":
            return f"https://zenodo.org/records/{self.location}"
        if self.kind == "hub":
            return f"https://huggingface.co/datasets/{self.location}"
        return self.location

    def describe(self) -> str:
        """One line: kind, where, which revision."""
        at = f"@{self.revision[:12]}" if self.revision else " (revision not pinned)"
        if self.kind == "github":
            return f"GitHub {self.location}{at}"
        if self.kind == "zenodo":
            return f"Zenodo record {self.location}: {self.filename}"
        if self.kind == "hub":
            return f"Hub dataset {self.location}{at}"
        if self.kind == "manual":
            return f"manual: {self.filename} from {self.location}"
        return f"HTTPS {self.location}"


@dataclass(frozen=True)
class Source:
    """The raw download of one or more datasets (see the module docstring).

    ``gated`` (by default: whether a download is ``manual``): a person must register,
    request access, log in or accept a licence first; then ``instructions`` say how, and
    the files go into the manual folder. ``terms`` are the conditions a user accepts by
    downloading (shown; ``--accept-terms`` proceeds without asking). ``note`` says how the declaration was established (what a copy was
    compared with, what is not pinned)."""

    name: str  # the folder the builder reads: the datasets' raw_hint
    downloads: tuple[Download, ...]
    license: str
    homepage: str = ""  # default: the first download's page
    gated: bool | None = None  # default: whether a download is a manual one
    instructions: str = ""
    terms: str = ""
    datasets: tuple[str, ...] = ()  # ids fed besides those with raw_hint == name
    note: str = ""

    def __post_init__(self) -> None:
        if not self.downloads:
            raise ValueError(f"source {self.name!r} declares no download")
        if "/" in self.name or self.name.startswith("."):
            raise ValueError(f"source name {self.name!r} must be a plain folder name")
        if self.gated is None:
            object.__setattr__(self, "gated", any(d.kind == "manual" for d in self.downloads))
        if self.gated and not self.instructions:
            raise ValueError(f"gated source {self.name!r} needs instructions")
        if not self.homepage:
            object.__setattr__(self, "homepage", self.downloads[0].page)

    def covers(self, rel: str) -> bool:
        """Whether raw-folder path ``rel`` is one that a download's members produce."""
        for download in self.downloads:
            for src, dst in download.members:
                target = dst or src
                if target == "" or (target.endswith("/") and rel.startswith(target)):
                    return True
                if rel == target:
                    return True
        return False

    @property
    def kind(self) -> str:
        """The host kind shown in catalogues: the first download's (``manual`` if gated)."""
        return "manual" if self.gated else self.downloads[0].kind

    @property
    def pinned(self) -> bool:
        """Whether every download names a fixed revision (a commit, a record, a URL)."""
        return all(d.pinned for d in self.downloads)


#: a download's members as the helpers take them: a (download path, raw-folder path)
#: pair, or one path kept the same in both
Members = tuple[str | tuple[str, str], ...]
EVERYTHING: Members = (("", ""),)


def _pairs(members: Members) -> tuple[tuple[str, str], ...]:
    return tuple((m, m) if isinstance(m, str) else m for m in members)


def github(repo: str, commit: str, members: Members = EVERYTHING) -> Download:
    """A repository's archive at ``commit``, ``members`` mapped into the raw folder."""
    return Download("github", repo, commit, archive="tar.gz", members=_pairs(members))


def zenodo(
    record: str, filename: str, archive: str = "zip", members: Members = EVERYTHING
) -> Download:
    """One file of a Zenodo record (records are immutable: the id pins the revision)."""
    return Download("zenodo", record, filename=filename, archive=archive, members=_pairs(members))


def hub(
    repo: str, revision: str, members: Members, filename: str = "", archive: str = ""
) -> Download:
    """Files of a Hub dataset repo at ``revision``: ``members``' sources are repo paths,
    or, with ``archive``, paths inside the repo file ``filename``."""
    return Download(
        "hub", repo, revision, filename=filename, archive=archive, members=_pairs(members)
    )


def https(url: str, to: str, archive: str = "") -> Download:
    """One plain file at ``url``, saved in the raw folder as ``to`` (an archive is
    extracted there instead, ``to`` being the folder)."""
    return Download("https", url, archive=archive, members=(("", to),))


def manual(
    page: str, filename: str = "", archive: str = "", members: Members = EVERYTHING
) -> Download:
    """A file a person downloads from ``page`` (a form, a login) into the manual folder;
    without ``filename``, the release's files themselves (unpacked) go there."""
    return Download("manual", page, filename=filename, archive=archive, members=_pairs(members))
