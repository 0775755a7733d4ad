"""PPM conditional-cost worker, run as a small separate process by :mod:`.ppm`.

Protocol on stdin/stdout: length-prefixed pickles. A request ``(order, mem_mb, context,
texts)`` is answered with the list ``[cost(text | context) in bytes for text in texts]``.
The PPMd model state after ``context`` cannot be copied (the C object does not pickle),
so the worker encodes ``context`` once and ``fork()``\\ s one child per text: the child
inherits the model state copy-on-write, encodes the text, flushes and reports the number
of bytes the text added. This module imports nothing heavy, so forks stay cheap.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys


def _read(stream) -> object | None:
    head = stream.read(8)
    if len(head) < 8:
        return None
    (size,) = struct.unpack("<Q", head)
    return pickle.loads(stream.read(size))


def _write(stream, obj: object) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def conditional_costs(order: int, mem_mb: int, context: bytes, texts: list[bytes]) -> list[int]:
    """Bytes each text adds to a PPMd (variant H) stream that already holds ``context``."""
    import pyppmd

    encoder = pyppmd.Ppmd7Encoder(order, mem_mb << 20)
    encoder.encode(context)  # output so far is not needed: only what the text adds
    read_end, write_end = os.pipe()
    costs = []
    try:
        for text in texts:
            pid = os.fork()
            if pid == 0:  # child: finish the stream with this text, report, exit at once
                added = len(encoder.encode(text)) + len(encoder.flush())
                os.write(write_end, struct.pack("<q", added))
                os._exit(0)
            _, status = os.waitpid(pid, 0)
            data = os.read(read_end, 8)
            if status != 0 or len(data) != 8:
                raise RuntimeError(f"PPM child failed (status {status})")
            costs.append(struct.unpack("<q", data)[0])
    finally:
        os.close(read_end)
        os.close(write_end)
    return costs


def main() -> None:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        request = _read(stdin)
        if request is None:
            return
        try:
            _write(stdout, ("ok", conditional_costs(*request)))
        except Exception as error:  # reported to the parent, which raises it
            _write(stdout, ("error", f"{type(error).__name__}: {error}"))


if __name__ == "__main__":
    main()
