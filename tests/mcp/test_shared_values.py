"""Level-2 payloads: every level-1 value survives the round trip, and no byte string, however
made, makes a decoder raise (a payload it cannot use is None: a miss)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pwc_core.transport import Reply
from pwc_mcp.caching.shared_values import (
    Miss,
    decode_answer,
    decode_chunk,
    decode_reply,
    encode_body,
    encode_chunk,
    encode_miss,
    encode_reply,
)

VERSION = "ab" * 32
headers = st.dictionaries(st.text(max_size=10), st.text(max_size=20), max_size=4)


@given(st.binary(max_size=200), st.text(max_size=50), headers)
def test_every_level_1_value_survives_the_round_trip(body: bytes, detail: str, meta) -> None:
    assert decode_answer(encode_body(body)) == body
    assert decode_answer(encode_miss(Miss(404, detail))) == Miss(404, detail)
    if body:
        reply = Reply(200, {**meta, "content-type": "text/markdown"}, body)
        assert decode_reply(encode_reply(reply)) == reply
    text = body.decode("utf-8", errors="replace").encode()
    for chunk in ((text, False, 0, VERSION), (text + b"x", True, 7 + len(text), VERSION)):
        assert decode_chunk(encode_chunk(chunk)) == chunk


KINDS = st.sampled_from([b"j", b"m", b"r", b"c", b"", b"z"])
JSONISH = st.sampled_from(
    [
        b"{}",
        b"[]",
        b"null",
        b'{"status": 404}',
        b'{"status": "404", "detail": 1}',
        b'{"status": 200, "headers": []}',
        b'{"status": 200, "headers": {"a": 1}}',
        b'{"truncated": 1, "next": 0, "version": "x"}',
        b'{"truncated": true, "next": -5}',
        b"{",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.binary(max_size=300), st.tuples(KINDS, JSONISH, st.binary(max_size=40))))
def test_no_payload_makes_a_decoder_raise(made) -> None:
    payload = made if isinstance(made, bytes) else made[0] + made[1] + b"\n" + made[2]
    for decode in (decode_answer, decode_reply, decode_chunk):
        decode(payload)


def test_what_level_1_never_keeps_is_refused() -> None:
    assert decode_answer(b'm{"status": 500, "detail": "x"}') is None  # only 404 misses
    assert decode_answer(b'm{"status": 404, "detail": "x", "extra": 1}') is None
    assert decode_reply(b'r{"status": 500, "headers": {}}\nbody') is None  # errors
    assert decode_reply(b'r{"status": 200, "headers": {}}\n') is None  # empty
    html = b'r{"status": 200, "headers": {"content-type": "text/html"}}\n<html>'
    assert decode_reply(html) is None
    assert decode_reply(b'r{"status": true, "headers": {}}\nbody') is None  # a bool is no status
    assert decode_chunk(encode_chunk((b"\xff", False, 0, VERSION))) is None  # not UTF-8
    assert decode_chunk(encode_chunk((b"x", True, 0, VERSION))) is None  # no next offset
    assert decode_chunk(encode_chunk((b"x", False, 0, "A" * 64))) is None  # not a SHA-256
