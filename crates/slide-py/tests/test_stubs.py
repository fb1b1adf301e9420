"""The type stubs (python/slide/__init__.pyi) in step with the module: every function the stubs declare at the top
level exists, and where the extension reports its signature (pyo3's text signatures, sliding_puzzle's own), the
stubs name the same parameters, in the same order, of the same kinds (positional-only, keyword-only)."""

import ast
import inspect
import pathlib

import pytest

import slide

STUBS = pathlib.Path(__file__).resolve().parents[1] / "python" / "slide" / "__init__.pyi"


def _stub_functions():
    tree = ast.parse(STUBS.read_text())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _stub_params(fn):
    a = fn.args
    out = [(p.arg, inspect.Parameter.POSITIONAL_ONLY) for p in a.posonlyargs]
    out += [(p.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in a.args]
    out += [(p.arg, inspect.Parameter.KEYWORD_ONLY) for p in a.kwonlyargs]
    return out


FUNCTIONS = _stub_functions()


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_stub_matches_the_function(name):
    f = getattr(slide, name)
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        pytest.skip(f"{name} reports no signature")
    real = [(p.name, p.kind) for p in sig.parameters.values() if not p.name.startswith("_")]
    assert _stub_params(FUNCTIONS[name]) == real


def test_the_options_of_solve_are_stubbed():
    for name in ["solve", "solve_many", "estimate"]:
        names = [p for p, _ in _stub_params(FUNCTIONS[name])]
        for option in ["max_memory", "cancel", "progress"]:
            assert option in names, (name, option)
    assert "threads" in [p for p, _ in _stub_params(FUNCTIONS["solve"])]
