"""The docs site, API reference included, builds in strict mode (a reference to a missing module or name, or a
broken link, fails), and every doc and API page is in its navigation."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"


def nav_pages() -> list[str]:
    """The pages ``mkdocs.yml`` lists, in order."""
    return re.findall(r"^\s+- ([\w/]+\.md)$", (ROOT / "mkdocs.yml").read_text(), flags=re.MULTILINE)


def test_the_docs_build_in_strict_mode_with_the_api_reference(tmp_path):
    pytest.importorskip("mkdocstrings", reason="mkdocs and mkdocstrings come with the dev extra")
    site = tmp_path / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    page = (site / "api" / "vector" / "index.html").read_text()
    assert 'id="stonk_envs.vector.make"' in page  # written from the docstring of stonk_envs.vector.make


def test_every_doc_and_api_page_is_in_the_navigation():
    pages = [*(path.name for path in sorted((ROOT / "docs").glob("*.md"))),
             *(f"api/{path.name}" for path in sorted(API.glob("*.md")))]
    assert sorted(nav_pages()) == sorted(pages)


def test_the_api_index_links_every_api_page_with_the_modules_it_documents():
    index = (API / "index.md").read_text()
    for page in sorted(API.glob("*.md")):
        if page.name == "index.md":
            continue
        modules = re.findall(r"^::: ([\w.]+)$", page.read_text(), flags=re.MULTILINE)
        row = next(line for line in index.splitlines() if f"]({page.name})" in line)
        assert re.findall(r"`([\w.]+)`", row) == modules, page.name
