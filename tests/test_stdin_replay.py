"""Standard input streamed in blocks can be read whole again (``replayable_stdin``): what the stream read
is kept in a temporary file, so a reader that must read it whole after some blocks (records that pair in
another order) sees every byte once, in order, whatever the stream had read, plain or compressed, from a
real pipe as from a file."""
from __future__ import annotations

import gzip
import os
import sys
import threading

import pytest

from ts_eval.io import source


def _pipe(data: bytes):
    """A real pipe whose writer sends ``data`` in small pieces (a reader cannot get it in one read)."""
    r, w = os.pipe()

    def write() -> None:
        with os.fdopen(w, "wb") as fh:
            for k in range(0, len(data), 997):
                fh.write(data[k:k + 997])
                fh.flush()

    threading.Thread(target=write, daemon=True).start()
    return os.fdopen(r, "r", encoding="utf-8")


@pytest.mark.parametrize("pack", [bytes, gzip.compress], ids=["plain", "gzip"])
@pytest.mark.parametrize("read_first", [0, 1, 5000, 10 ** 6], ids=["nothing", "a byte", "some", "all"])
def test_what_was_streamed_and_the_rest_are_read_again(monkeypatch, pack, read_first):
    data = b"".join(b"line %d of standard input\n" % k for k in range(3000))
    monkeypatch.setattr(sys, "stdin", _pipe(pack(data)))
    assert source.read_head(source.STDIN, 64) == data[:64]      # the head looked at first (choosing a format)
    source.replayable_stdin()
    stream = source.open_stream(source.STDIN)
    assert stream.read(read_first) == data[:read_first]
    assert source.read_bytes(source.STDIN) == data              # read whole again, from the start


def test_standard_input_streamed_without_asking_is_not_kept(monkeypatch):
    data = b"a O O\n" * 1000
    monkeypatch.setattr(sys, "stdin", _pipe(data))
    stream = source.open_stream(source.STDIN)
    assert stream.read() == data
    assert source._STDIN.spool is None                          # a streamed column file keeps nothing
