"""The `>>>` examples of the package's README and of the repository README's Python section, run as doctests: the
README's answers are the package's."""

import doctest
import pathlib
import re

import pytest

_ROOT = pathlib.Path(__file__).resolve().parents[3]
_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _examples(path, section=None):
    text = path.read_text(encoding="utf-8")
    if section is not None:
        start = text.index(section)
        end = text.find("\n## ", start + len(section))
        text = text[start : end if end >= 0 else len(text)]
    return "\n".join(b for b in _BLOCK.findall(text) if ">>>" in b)


@pytest.mark.parametrize(
    "path,section",
    [(_ROOT / "crates" / "slide-py" / "README.md", None), (_ROOT / "README.md", "\n## Python\n")],
    ids=["package README", "README Python section"],
)
def test_readme_examples(path, section):
    text = _examples(path, section)
    assert text.count(">>>") >= 5, "the examples are gone"
    test = doctest.DocTestParser().get_doctest(text, {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
