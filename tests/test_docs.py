"""The docs hold: the README's examples run as shown, every relative link and anchor resolves,
and no doc grows past about 400 lines."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
MAX_LINES = 400
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def readme_examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.DOTALL)


def anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered."""
    seen: dict[str, int] = {}
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.DOTALL)
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        if count:
            seen[f"{slug}-{count}"] = 1
    return set(seen)


def test_the_readme_has_an_example_per_api():
    assert len(readme_examples()) == 4


@pytest.mark.parametrize("index", range(4))
def test_readme_example_runs(index, capsys):
    exec(compile(readme_examples()[index], f"README example {index}", "exec"), {})


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_resolves(doc):
    for target in LINK.findall(doc.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        assert path.exists(), f"{doc.name}: {target} names a missing file"
        if anchor:
            assert anchor in anchors(path), f"{doc.name}: {target} names a missing heading"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_doc_is_over_400_lines(doc):
    assert len(doc.read_text().splitlines()) <= MAX_LINES
