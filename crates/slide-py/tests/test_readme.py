"""The `>>>` examples of the documents, run as doctests: the package's README, the repository README and the user
guide (docs/guide.md). Every ```python block holding `>>>` is run; the documents' answers are the package's. And the
type stubs (python/slide/__init__.pyi) in step with the module: every function they declare at the top level
exists, and where the extension reports its signature (pyo3's text signatures, sliding_puzzle's own), the stubs
name the same parameters, in the same order, of the same kinds (positional-only, keyword-only)."""

import ast
import doctest
import inspect
import pathlib
import re

import pytest

import slide

_ROOT = pathlib.Path(__file__).resolve().parents[3]
_BLOCK = re.compile(r"```python\n(.*?)```", re.S)
_DOCUMENTS = [
    (_ROOT / "crates" / "slide-py" / "README.md", 5),
    (_ROOT / "README.md", 5),
    (_ROOT / "docs" / "guide.md", 3),
]


def _examples(path):
    return "\n".join(b for b in _BLOCK.findall(path.read_text(encoding="utf-8")) if ">>>" in b)


@pytest.mark.parametrize(
    "path,least", _DOCUMENTS, ids=["package README", "README", "user guide"]
)
def test_readme_examples(path, least):
    text = _examples(path)
    assert text.count(">>>") >= least, "the examples are gone"
    test = doctest.DocTestParser().get_doctest(text, {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


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
