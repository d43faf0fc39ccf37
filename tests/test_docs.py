"""The docs hold: the README's examples run as shown, every relative link and anchor resolves,
every config key has a row in its doc's tables (the training configs' written from their schemas), and no doc
grows past about 400 lines."""

import dataclasses
import importlib
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


SHAPES = re.compile(r"^(\w+), (\w+) = .*# \(([\d, ]+)\) (\w+), \(([\d, ]+)\) (\w+)$", flags=re.MULTILINE)
"""A line such as ``obs, masks = ...  # (8, 4, 10) float32, (8, 4, 3) int8``: the shapes and dtypes it states."""


@pytest.mark.parametrize("index", range(4))
def test_readme_example_runs(index, capsys):
    example = readme_examples()[index]
    names: dict = {}
    exec(compile(example, f"README example {index}", "exec"), names)
    for first, second, *stated in SHAPES.findall(example):
        for name, shape, dtype in ((first, *stated[:2]), (second, *stated[2:])):
            shown = (tuple(int(n) for n in shape.split(",")), dtype)
            assert (names[name].shape, str(names[name].dtype)) == shown, f"README example {index}: {name}"


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


def config_keys(schema, prefix: str = "") -> list[str]:
    """Every key of a config dataclass, nested sections as ``section.key``."""
    keys = []
    for field in dataclasses.fields(schema):
        if dataclasses.is_dataclass(field.default_factory() if callable(field.default_factory) else None):
            keys += config_keys(field.default_factory, f"{prefix}{field.name}.")
        else:
            keys.append(prefix + field.name)
    return keys


def schemas():
    from stonk_envs.games.stockpile.config import StockpileConfig
    from stonk_envs.games.stocks_and_bombs.config import StocksAndBombsConfig
    from stonk_envs.games.stonk_market.config import StonkMarketConfig
    from stonk_envs.integrations.rllib_config import RLlibConfig
    from stonk_envs.training.config import TrainConfig

    return [("config_keys.md", TrainConfig), ("config_keys.md", RLlibConfig), ("stockpile.md", StockpileConfig),
            ("stocks_and_bombs.md", StocksAndBombsConfig), ("stonk_market.md", StonkMarketConfig)]


@pytest.mark.parametrize("index", range(5))
def test_every_config_key_is_in_a_table_of_its_doc(index):
    doc, schema = schemas()[index]
    rows = [line for line in (ROOT / "docs" / doc).read_text().splitlines() if line.startswith("| `")]
    missing = [key for key in config_keys(schema) if not any(f"`{key}`" in row.split(" | ")[0] for row in rows)]
    assert not missing, f"{doc} has no table row for {missing}"


LAYOUT_TABLES = [
    ("stockpile.md", "stonk_envs.games.stockpile.observe", "OBSERVATION"),
    ("stockpile.md", "stonk_envs.games.stockpile.memory", "MEMORY"),
    ("stocks_and_bombs.md", "stonk_envs.games.stocks_and_bombs.observe", "OBSERVATION"),
    ("stocks_and_bombs.md", "stonk_envs.games.stocks_and_bombs.observe", "MEMORY"),
    ("stonk_market.md", "stonk_envs.games.stonk_market.observe", "OBSERVATION"),
    ("stonk_market.md", "stonk_envs.games.stonk_market.memory", "MEMORY"),
]


@pytest.mark.parametrize(("doc", "module", "name"), LAYOUT_TABLES, ids=lambda x: x.rsplit(".", 1)[-1])
def test_a_docs_observation_table_is_its_layout(doc, module, name):
    layout = getattr(importlib.import_module(module), name)
    assert layout.markdown() in (ROOT / "docs" / doc).read_text(), (
        f"docs/{doc} does not hold the table of {module}.{name}: put {name}.markdown() in its place"
    )


def test_the_config_keys_page_is_what_the_schemas_give():
    import importlib.util

    spec = importlib.util.spec_from_file_location("write_config_docs", ROOT / "scripts" / "write_config_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "docs" / "config_keys.md").read_text() == module.page(), (
        "docs/config_keys.md differs from the schemas' docstrings; run python scripts/write_config_docs.py")


def test_no_training_key_is_marked_as_one_trainers_only():
    from stonk_envs.training import config

    for text in ((ROOT / "docs" / "training.md").read_text(), (ROOT / "docs" / "config_keys.md").read_text(),
                 Path(config.__file__).read_text()):
        assert not re.search(r"(ppo|sb3) only|[Tt]rainer (ppo|sb3)\b|needs trainer=", text)


def test_the_champions_cards_are_what_the_index_gives():
    import importlib.util

    spec = importlib.util.spec_from_file_location("write_champion_docs", ROOT / "scripts" / "write_champion_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (ROOT / "docs" / "champions.md").read_text()
    from stonk_envs import champions

    assert sorted(m["game"] for m in module.block("card").finditer(text)) == champions.games()
    assert module.page(text) == text, (
        "docs/champions.md's cards differ from the champions index; run python scripts/write_champion_docs.py")
