"""Credentials in URLs: the one rule for finding, hiding and sending them.

A URL may carry a credential in its userinfo (``http://user:sk-...@host/v1``) or in a
query parameter whose name says it is one (``?api_key=...``, ``?token=``, ``?sig=``,
``?X-Amz-Signature=``, ...: :func:`is_secret_param`). Such a URL is *sent* as given
(the userinfo as HTTP basic auth, the query parameters in the query), but never
*shown* or *stored*: every name, path, record and message shows it with each
credential replaced by ``***`` (:func:`redact_url`, and :func:`redact` for any text
holding URLs, such as a model spec ``openai-embeddings:m@http://user:key@host/v1``).

The safe way to pass a key is not in the URL at all but in an environment variable
(``OPENAI_API_KEY`` for the OpenAI-compatible client): a command line is visible to
every user of the machine (``ps``) and lands in shell histories.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

MASK = "***"

# a query parameter is a credential when its name, lowercased without separators,
# holds one of these words or is one of the short names below
_SECRET_WORDS = (
    "key",
    "token",
    "secret",
    "passw",
    "pwd",
    "auth",
    "signature",
    "credential",
    "session",
    "cookie",
    "jwt",
    "bearer",
    "apikey",
)
_SECRET_NAMES = frozenset({"sig", "code", "pass", "pw"})
# a URL inside text: a scheme, ``://`` and everything up to a space or a quote, less
# the punctuation that ends a sentence or a clause after it
_URL_IN_TEXT = re.compile(r"""[A-Za-z][A-Za-z0-9+.\-]*://[^\s'"<>`]*[^\s'"<>`.,:;!?)\]}]""")


def is_secret_param(name: str) -> bool:
    """True when a query parameter called ``name`` carries a credential (``api_key``,
    ``access_token``, ``client_secret``, ``password``, ``auth``, ``X-Amz-Signature``,
    ``sig``, ``code``, ...). Redacting a harmless parameter costs nothing; showing a
    key costs the key, so the rule errs on the side of hiding."""
    plain = re.sub(r"[^a-z0-9]", "", name.lower())
    return plain in _SECRET_NAMES or any(word in plain for word in _SECRET_WORDS)


@dataclass(frozen=True)
class UrlCredentials:
    """The credentials a URL carried: its userinfo (``username``, ``password``, both
    percent-decoded) and the query parameters that are credentials, in order."""

    username: str | None = None
    password: str | None = None
    params: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return self.username is not None or bool(self.params)

    def values(self) -> tuple[str, ...]:
        """Every secret value (to scrub from text that may echo it): the password, or
        the username where it stands alone (``https://<token>@host``), and the values
        of the credential parameters."""
        user = self.username if not self.password else ""
        found = [self.password or "", user or "", *(value for _, value in self.params)]
        return tuple(v for v in found if len(v) >= 3)

    def __repr__(self) -> str:  # never shows a value
        return (
            f"UrlCredentials(userinfo={'yes' if self.username is not None else 'no'}, "
            f"params={[name for name, _ in self.params]})"
        )


def _split_netloc(netloc: str) -> tuple[str | None, str]:
    """``(userinfo or None, host[:port])``; the last ``@`` ends the userinfo."""
    userinfo, at, host = netloc.rpartition("@")
    return (userinfo if at else None), host


def _query_parts(query: str) -> list[str]:
    return [part for part in re.split(r"[&;]", query) if part] if query else []


def _param_name(part: str) -> str:
    return unquote(part.partition("=")[0].replace("+", " "))


def redact_url(url: str) -> str:
    """``url`` with its userinfo and the values of its credential query parameters
    replaced by ``***`` (the rest, names included, as given): ``http://***@host/v1``,
    ``.../v1?api_key=***&api-version=2``. A URL without credentials comes back as it is."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _redact_unparsable(url)
    userinfo, host = _split_netloc(parts.netloc)
    netloc = f"{MASK}@{host}" if userinfo is not None else parts.netloc
    query_parts = _query_parts(parts.query)
    query = parts.query
    if any(is_secret_param(_param_name(p)) for p in query_parts):
        query = "&".join(
            f"{p.partition('=')[0]}={MASK}" if is_secret_param(_param_name(p)) else p
            for p in query_parts
        )
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _redact_unparsable(url: str) -> str:
    """A URL ``urlsplit`` refuses (a bad IPv6 host, say): everything after the scheme
    is hidden, since its userinfo cannot be told apart."""
    scheme, sep, _ = url.partition("://")
    return f"{scheme}://{MASK}" if sep else MASK


def redact(text: str) -> str:
    """``text`` with every URL in it passed through :func:`redact_url` (model specs,
    error messages, command lines)."""
    if "://" not in text:
        return text
    return _URL_IN_TEXT.sub(lambda match: redact_url(match.group(0)), text)


def split_credentials(url: str) -> tuple[str, UrlCredentials]:
    """``(url without userinfo, credentials)``: the URL to send requests to keeps its
    whole query (credential parameters included, as given) but not its userinfo, which
    goes to basic auth. Raises ``ValueError`` for a URL ``urlsplit`` cannot read."""
    parts = urlsplit(url)
    userinfo, host = _split_netloc(parts.netloc)
    username = password = None
    if userinfo is not None:
        user, colon, secret = userinfo.partition(":")
        username, password = unquote(user), (unquote(secret) if colon else "")
    params = tuple(
        (name, value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
        if is_secret_param(name)
    )
    bare = urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
    return bare, UrlCredentials(username, password, params)


def scrub(text: str, credentials: UrlCredentials, *more: str | None) -> str:
    """``text`` with the URLs in it redacted and every value of ``credentials`` (and
    ``more``, e.g. an API key) replaced by ``***`` wherever it appears (a server that
    echoes a key in its error message, an exception quoting the URL)."""
    text = redact(text)
    for value in (*credentials.values(), *(m for m in more if m)):
        text = text.replace(value, MASK)
    return text
