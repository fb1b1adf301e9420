"""Bad input through Python: each case raises a Python exception of the documented kind, none crashes the
interpreter, and the message names what is wrong. The cases are the bad-input catalogue that the Rust tests read
too (crates/slide/tests/data/bad_input.json): its malformed boards, given to slide.solve as text, and the calls
only Python can make."""

import json
import pathlib

import numpy as np
import pytest

import slide

CATALOGUE = json.loads(
    (pathlib.Path(__file__).resolve().parents[2] / "slide" / "tests" / "data" / "bad_input.json").read_text()
)
NAMES = CATALOGUE["names"]
CASES = CATALOGUE["python"]
EXCEPTIONS = {"BoardError": slide.BoardError, "TypeError": TypeError, "ValueError": ValueError}


def bytes_of(v):
    """The bytes an input of the catalogue stands for (see its "about")."""
    if isinstance(v, str):
        return v.encode()
    if isinstance(v, list):
        return b"".join(bytes_of(p) for p in v)
    if "hex" in v:
        return bytes.fromhex(v["hex"])
    if "repeat" in v:
        return v["repeat"].encode() * v["times"]
    if "row_of" in v:
        return ("[[" + ",".join(str(i) for i in range(v["row_of"])) + "]]").encode()
    raise ValueError(f"not an input: {v!r}")


def words_of(v):
    return [v] if isinstance(v, str) else v


def python_boards():
    """The catalogue's boards that slide.solve takes: (name, board, exception, words, exact). Each board's text is
    given as a string; a board that has a JSON value is also given as that value (lists), whose message is the
    entry's `value_error` exactly (`exact`), as the server's is."""
    out = []
    for e in CATALOGUE["boards"]:
        face = e.get("python", e["error"])
        if face is None:
            continue
        assert "shape" not in e, f"{e['name']}: slide.solve takes no shape"
        text = bytes_of(e["board"]).decode()
        if isinstance(face, dict):
            out.append((e["name"], text, EXCEPTIONS[face["raises"]], words_of(face["error"]), False))
        else:
            out.append((e["name"], text, slide.BoardError, words_of(face), False))
        if "value" in e:
            exc = EXCEPTIONS[e.get("value_raises", "BoardError")]
            if "value_error" in e:
                out.append((e["name"] + " (value)", e["value"], exc, [e["value_error"]], True))
            else:
                out.append((e["name"] + " (value)", e["value"], exc, words_of(face), False))
    return out


BOARDS = python_boards()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_input_raises(case):
    p = case["python"]
    call = compile(p["call"], case["name"], "eval")
    with pytest.raises(EXCEPTIONS[p["raises"]]) as info:
        eval(call, {"slide": slide, "np": np, **json.loads(json.dumps(NAMES))})
    for w in words_of(p["error"]):
        assert w.lower() in str(info.value).lower()


@pytest.mark.parametrize("name,board,exc,words,exact", BOARDS, ids=[b[0] for b in BOARDS])
def test_bad_board_raises(name, board, exc, words, exact):
    with pytest.raises(exc) as info:
        slide.solve(board)
    if exact:
        assert str(info.value) == words[0]
    for w in words:
        assert w.lower() in str(info.value).lower()


OPTIONS = CATALOGUE["options"]


@pytest.mark.parametrize("case", OPTIONS, ids=[o["name"] for o in OPTIONS])
def test_bad_option_gets_the_librarys_sentence(case):
    """The same sentence as the command line and the server (the catalogue's `options`), after the keyword."""
    keyword = CATALOGUE["option_names"][case["option"]]["python"]
    value = case["value"]
    if isinstance(value, str):
        value = int(value) if value.lstrip("-").isdigit() else float(value)
    with pytest.raises(ValueError) as info:
        slide.solve(NAMES["OK"], **{keyword: value})
    assert str(info.value) == f"{keyword}: {case['error']}"


CHOICES = CATALOGUE["choices"]


@pytest.mark.parametrize("case", CHOICES, ids=[c["name"] for c in CHOICES])
def test_bad_choice_gets_the_librarys_sentence(case):
    """A name that is not one of an option's values: the library's sentence, as the command line gives it after
    clap's `invalid value 'V' for '--flag <V>': ` (the catalogue's `choices`), after the keyword."""
    keyword = CATALOGUE["option_names"][case["option"]]["python"]
    with pytest.raises(ValueError) as info:
        slide.solve(NAMES["OK"], **{keyword: case["value"]})
    assert str(info.value) == f"{keyword}: {case['error']}"


def test_there_are_at_least_30_cases():
    assert len(CASES) >= 30
    assert len(BOARDS) >= 50
    assert len({c["name"] for c in CASES}) == len(CASES)


def test_big_endian_arrays_are_refused_or_read_right():
    arr = np.array([[[4, 1, 2], [5, 0, 3]]], dtype=">i4")
    try:
        got = slide.distances(arr)
    except TypeError as e:
        assert "byte order" in str(e)
    else:
        assert list(got) == [5]
