"""Whether a Ray head answers at ``host:port``, decided by the clock.

``ray.init`` on an address where nothing listens, or on a port that is open but is not
Ray, rewrites the address and retries forever, so ``stylebench run --ray`` checks first
(:func:`check_reachable`). Every step of the check is bounded by one deadline measured
with :func:`time.monotonic`: the name lookup (``getaddrinfo`` has no timeout of its own:
a resolver that does not answer held it for 28 s per lookup here, minutes with more
nameservers or search domains), each connection attempt to each address the name has,
and the HTTP/2 probe (:func:`speaks_grpc`). A machine under load changes how much work
fits in the wait, not how long it lasts, and the error says the seconds actually waited.

Nothing here imports Ray.
"""

from __future__ import annotations

import os
import socket
import threading
import time

from dataset_scripts.core.errors import StylebenchError

__all__ = [
    "JOIN_SECONDS",
    "PROBE_GRACE_SECONDS",
    "LookupTimeout",
    "check_reachable",
    "resolve",
    "speaks_grpc",
]

JOIN_SECONDS = 20.0  # how long a driver waits for the cluster's port to accept it

#: a port that accepts just before the deadline still gets this long to answer the probe
#: (a Ray head answers at once), so the whole check ends within JOIN_SECONDS + this
PROBE_GRACE_SECONDS = 1.0

# the HTTP/2 client preface and an empty SETTINGS frame (RFC 9113 3.4, 6.5): a Ray head's
# GCS port is a gRPC server, which answers them with its own SETTINGS frame at once
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
_H2_SETTINGS = 0x04

_Address = tuple[int, int, int, tuple]  # family, type, proto, sockaddr


def speaks_grpc(sock: socket.socket, seconds: float) -> str | None:
    """None when the peer of the connected ``sock`` answers the HTTP/2 preface with a
    SETTINGS frame within ``seconds`` (as a Ray head's GCS port does), else why not: it
    sent nothing (saying how long it was waited for, as measured), closed the connection,
    or answered with something else (an HTTP/1 server, say)."""
    start = time.monotonic()
    deadline = start + seconds
    data = b""
    try:
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        sock.sendall(_H2_PREFACE)
        while len(data) < 9:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            sock.settimeout(left)
            chunk = sock.recv(9 - len(data))
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        if not data:
            waited = time.monotonic() - start
            return f"the port accepted a connection but answered nothing in {waited:.1f} s"
    except ConnectionError:  # reset or broken pipe: closed with our bytes unread
        data = b""
    except OSError as error:
        return f"the connection failed while checking for Ray ({error.strerror or error})"
    if (
        len(data) == 9
        and data[3] == _H2_SETTINGS
        and int.from_bytes(data[5:9], "big") & 0x7FFFFFFF == 0
    ):
        return None
    if not data:
        return "the port closed the connection without answering"
    return f"the port answered {data!r}, which is not HTTP/2"


class LookupTimeout(TimeoutError):
    """A name lookup that did not answer within its wait."""


def resolve(host: str, port: int, seconds: float) -> list[_Address]:
    """The TCP addresses of ``host`` (``socket.getaddrinfo``), waited for at most
    ``seconds``: the lookup runs in a daemon thread, so a resolver that does not answer
    costs the wait and no more (the thread is left to finish on its own). Raises
    :class:`TimeoutError` when the wait is over, :class:`OSError` (``socket.gaierror``)
    when the name does not resolve."""
    try:  # an IP address needs no lookup
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
        return [(family, kind, proto, addr) for family, kind, proto, _, addr in infos]
    except socket.gaierror:
        pass
    found: list[list[_Address]] = []
    failed: list[OSError] = []
    done = threading.Event()

    def look_up() -> None:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            found.append([(family, kind, proto, addr) for family, kind, proto, _, addr in infos])
        except OSError as error:
            failed.append(error)
        finally:
            done.set()

    threading.Thread(target=look_up, name=f"resolve {host}", daemon=True).start()
    if not done.wait(max(seconds, 0.0)):
        raise LookupTimeout(f"the lookup of {host!r} did not answer")
    if failed:
        raise failed[0]
    return found[0]


def _tls_on() -> bool:
    return os.environ.get("RAY_USE_TLS", "0").strip().lower() in ("1", "true", "yes")


def _connect(addresses: list[_Address], deadline: float) -> socket.socket:
    """A socket connected to the first of ``addresses`` that accepts before ``deadline``
    (each attempt waits at most 5 s, and never past the deadline); else the last error."""
    last: OSError = TimeoutError("timed out")
    for family, kind, proto, addr in addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(min(5.0, left))
            sock.connect(addr)
        except OSError as error:
            sock.close()
            last = error
            continue
        return sock
    raise last


def _reason(error: OSError) -> str:
    if isinstance(error, socket.gaierror):
        return f"its name did not resolve: {error.strerror or error}"
    return error.strerror or str(error) or type(error).__name__


def check_reachable(address: str, seconds: float | None = None) -> None:
    """For a ``host:port`` address, wait up to ``seconds`` (:data:`JOIN_SECONDS`) for the
    port to accept a TCP connection (a head node may still be starting; tried again each
    second) and to answer as a Ray head's GCS port does (an HTTP/2 SETTINGS frame,
    :func:`speaks_grpc`; skipped under ``RAY_USE_TLS``), then stop with an error naming
    the address and the seconds waited: ``ray.init`` on an unreachable address, or on a
    port that is open but is not Ray, rewrites it and retries forever. ``auto``,
    ``local`` and ``ray://`` addresses are left to Ray.

    The wait is measured by the clock: the name lookup (:func:`resolve`) and every
    connection attempt end at the deadline; only a port that accepted in time is given
    up to :data:`PROBE_GRACE_SECONDS` past it to answer the probe."""
    if address in ("auto", "local") or "://" in address:
        return
    host, sep, port_text = address.rpartition(":")
    if not sep or not port_text.isdigit() or not host:
        raise StylebenchError(
            f"--ray {address!r}: expected auto, local, <host>:<port> (e.g. head-node:6379) "
            "or ray://<host>:<port>"
        )
    host, port = host.strip("[]"), int(port_text)
    limit = JOIN_SECONDS if seconds is None else seconds
    start = time.monotonic()
    deadline = start + limit
    last: OSError = TimeoutError("timed out")
    while True:
        try:
            addresses = resolve(host, port, deadline - time.monotonic())
            sock = _connect(addresses, deadline)
        except OSError as error:
            last = error
        else:
            with sock:
                grace = max(deadline - time.monotonic(), PROBE_GRACE_SECONDS)
                problem = None if _tls_on() else speaks_grpc(sock, grace)
            if problem is None:
                return
            raise StylebenchError(
                f"cannot join the Ray cluster at {address!r}: {problem}, so it is not a Ray "
                "head's GCS port (`ray start --head --port <port>` prints it; default "
                "6379); check the address, or use --ray local"
            )
        if time.monotonic() + 1 > deadline:  # no time for another try after a pause
            break
        time.sleep(1)
    waited = time.monotonic() - start
    raise StylebenchError(
        f"cannot join the Ray cluster at {address!r}: nothing accepted a connection there "
        f"in {waited:.1f} s of trying ({_reason(last)}); is the head running? start one "
        "with `ray start --head --port <port>`, or use --ray local"
    )
