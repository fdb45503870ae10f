"""Each request is parsed once by us (admission, `parse_message`), and the fast path reads that
parse as the framework's own. Held here against the framework's two parsers on every body
admission accepts: the modern era's `json.loads` reads it to the very same value, and the
handshake era's pydantic-core `from_json` does whenever `pydantic_reads_alike` says so and
refuses the body whenever it says not (one accepted exception: a run of more digits than
pydantic-core reads inside a string). "The very same value" is equal `repr`s, which tell
1 from 1.0 and True, -0.0 from 0.0, and keys in their order: what the fast path's variant is.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import from_json

from pwc_mcp.edge.jsonrpc import (
    PYDANTIC_MAX_DIGITS,
    BadMessage,
    parse_message,
    pydantic_reads_alike,
)

WIDE = b"1" + b"0" * PYDANTIC_MAX_DIGITS  # one digit more than pydantic-core reads


def call(value: bytes) -> bytes:
    """A tools/call whose one argument is `value`, as raw JSON text."""
    return (
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call",'
        b'"params":{"name":"search_papers","arguments":{"v":' + value + b"}}}"
    )


# name: (the argument's raw JSON text, whether pydantic-core reads the call alike)
VALUES: dict[str, tuple[bytes, bool]] = {
    "duplicate keys": (b'{"a": 1, "b": 2, "a": {"c": 3}, "b": [4]}', True),
    "one, one point oh, and others": (b"[1, 1.0, 1e0, 10e-1, -0, -0.0, 0.0, true]", True),
    "past the float range": (b"[1e400, -1e400, 1e-400, 1.7976931348623159e308]", True),
    "float digits past double precision": (
        b"[0.1000000000000000055511151231257827021181583404541015625, 9007199254740993.0]",
        True,
    ),
    "big integers": (b"[9007199254740993, -18446744073709551617, " + WIDE[:-1] + b"]", True),
    "an integer part of as many digits as pydantic-core reads": (WIDE[:-1] + b".5", True),
    "one digit more, a float to json": (WIDE + b".5", False),
    "one digit more, with an exponent": (WIDE + b"e-5000", False),
    "that many digits in a string (judged on the bytes)": (b'"' + WIDE + b'"', False),
    "escapes, a surrogate pair among them": (
        b'"\\u0074\\u00E9\\/\\ud83d\\ude00\\uD83D\\uDE00"',
        True,
    ),
    "a raw four-byte character": ('"\U0001f600 \u2028"'.encode(), True),
    "an escaped backslash before u": (b'"\\\\ud800"', True),
    "a lone high surrogate escape": (b'"\\ud800"', False),
    "a lone low surrogate escape": (b'"x\\udc00y"', False),
    "a reversed pair": (b'"\\ude00\\ud83d"', False),
    "a high surrogate before a plain escape": (b'"\\ud83d\\u0041"', False),
    "a surrogate escape in a key": (b'{"\\ud800": 1}', False),
    "a surrogate's UTF-8 bytes": (b'"\xed\xa0\x80"', False),
    "a pair's UTF-8 bytes (CESU-8)": (b'"\xed\xa0\xbd\xed\xb8\x80"', False),
    "a character led by 0xED that is no surrogate": ('"\ud7ff\ud55c"'.encode(), True),
    "nested to admission's bound": (b"[" * 60 + b"1" + b"]" * 60, True),
    "the nul escape": (b'"\\u0000"', True),
}


def admitted(body: bytes) -> dict[str, Any]:
    return parse_message(body)[0]


def assert_parsed_once_alike(body: bytes, alike: bool | None = None) -> None:
    """The body's admitted message is what each era's parser reads (see the module's text);
    `alike`, if given, is what `pydantic_reads_alike` must say."""
    message = admitted(body)
    assert repr(json.loads(body)) == repr(message)
    says = pydantic_reads_alike(body, message)
    if alike is not None:
        assert says is alike
    if says:
        assert repr(from_json(body)) == repr(message)
    elif WIDE not in body:
        with pytest.raises(ValueError):
            from_json(body)


@pytest.mark.parametrize("name", VALUES)
def test_adversarial_values(name: str) -> None:
    raw, alike = VALUES[name]
    assert_parsed_once_alike(call(raw), alike)


def test_digits_in_a_string_are_the_one_false_refusal() -> None:
    """The judgement on the bytes costs only the fast path for such a body, never an answer."""
    body = call(VALUES["that many digits in a string (judged on the bytes)"][0])
    assert repr(from_json(body)) == repr(admitted(body))
    assert not pydantic_reads_alike(body, admitted(body))


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: b"\xef\xbb\xbf" + text.encode(),
        lambda text: text.encode("utf-16-le"),
        lambda text: text.encode("utf-16"),
        lambda text: text.encode("utf-32-be"),
    ],
    ids=["BOM", "UTF-16-LE", "UTF-16 with BOM", "UTF-32-BE"],
)
def test_bodies_not_in_plain_utf8_are_admitted_but_not_alike(encode: Any) -> None:
    body = encode(call(b'"transformer"').decode())
    assert admitted(body) == admitted(call(b'"transformer"'))
    assert_parsed_once_alike(body, alike=False)


@pytest.mark.parametrize(
    "body", [call(b"NaN"), call(b"[Infinity]"), call(b"-Infinity"), call(WIDE[:-1] + b"1")]
)
def test_what_admission_refuses_never_reaches_the_fast_path(body: bytes) -> None:
    """Non-standard constants (pydantic-core reads them) and integers past Python's digit
    limit are refused here, before either era's parser could disagree."""
    with pytest.raises(BadMessage):
        parse_message(body)


# Any code point, surrogates included, and often the ones where the parsers could part.
CHARACTERS = st.characters(exclude_categories=()) | st.sampled_from(
    ["\ud83d", "\ude00", "\ud800", "\U0001f600", "\ud7ff", "\\", "u", "\x00", "\u2028", "9"]
)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(CHARACTERS, max_size=12),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(CHARACTERS, max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)
NUMBERS = st.from_regex(
    r"-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,30})?([eE][-+]?[0-9]{1,3})?", fullmatch=True
)


@given(value=JSON_VALUES, ascii_only=st.booleans(), spaced=st.booleans())
def test_random_values_in_either_encoding(value: Any, ascii_only: bool, spaced: bool) -> None:
    separators = (", ", ": ") if spaced else (",", ":")
    text = json.dumps(value, ensure_ascii=ascii_only, separators=separators)
    assert_parsed_once_alike(call(text.encode("utf-8", "surrogatepass")))


@given(numbers=st.lists(NUMBERS, min_size=1, max_size=8))
def test_random_number_literals(numbers: list[str]) -> None:
    assert_parsed_once_alike(call(("[" + ",".join(numbers) + "]").encode()), alike=True)
