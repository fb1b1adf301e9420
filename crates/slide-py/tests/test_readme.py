"""The `>>>` examples of the documents, run as doctests: the package's README, the repository README and the user
guide (docs/guide.md). Every ```python block holding `>>>` is run; the documents' answers are the package's."""

import doctest
import pathlib
import re

import pytest

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
