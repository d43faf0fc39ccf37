"""The docs hold: the README's and design.md's examples run as shown; every relative link and anchor resolves;
every repo path and module a doc names exists, and no doc points outside the repo; every config key has a row in its
doc's tables (the training configs' written from their schemas); each game doc opens with its tables read from the
envs, and the README holds the sizes of every game, its install section matches pyproject.toml; every training
command the docs show passes config validation and every ``stonk-envs`` command parses; no doc grows past about 400
lines, and few give a clock time."""

import dataclasses
import importlib
import importlib.util
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
MAX_LINES = 400
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def python_examples(doc: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / doc).read_text(), flags=re.DOTALL)


EXAMPLES = [*(("README.md", index) for index in range(4)), ("docs/design.md", 0)]
"""The README's four examples (AEC, Parallel, ``gymnasium.make_vec``, a saved policy) and the batched engine's."""


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


def test_the_readme_has_four_short_examples():
    examples = python_examples("README.md")
    assert len(examples) == 4
    assert max(len(example.splitlines()) for example in examples) <= 12


SHAPES = re.compile(r"^(\w+), (\w+) = .*# \(([\d, ]+)\) (\w+), \(([\d, ]+)\) (\w+)$", flags=re.MULTILINE)
"""A line such as ``obs, masks = ...  # (8, 4, 10) float32, (8, 4, 3) int8``: the shapes and dtypes it states."""
PRINTED = re.compile(r"^print\((.+)\)  # (\(.*\))$", flags=re.MULTILINE)
"""A line such as ``print(obs.shape)  # (64, 854)``: what it prints."""


@pytest.fixture
def main_job_policy(tmp_path, monkeypatch):
    """A working folder with the main job's ``runs/stocks_and_bombs/policy.zip``: an untrained network of its sizes."""
    from stonk_envs.policies.checkpoint import make_metadata, save_torch
    from stonk_envs.policies.torch_policy import MaskedMLP

    monkeypatch.chdir(tmp_path)
    metadata = make_metadata("stocks_and_bombs", 4, 854, 149, {}, kind="ppo")
    save_torch(MaskedMLP(854, 149, (8,)), tmp_path / "runs" / "stocks_and_bombs" / "policy.zip", metadata)


@pytest.mark.parametrize(("doc", "index"), EXAMPLES, ids=lambda x: str(x).replace("/", "-"))
def test_a_docs_example_runs(doc, index, main_job_policy, capsys):
    example = python_examples(doc)[index]
    names: dict = {}
    exec(compile(example, f"{doc} example {index}", "exec"), names)
    for first, second, *stated in SHAPES.findall(example):
        for name, shape, dtype in ((first, *stated[:2]), (second, *stated[2:])):
            shown = (tuple(int(n) for n in shape.split(",")), dtype)
            assert (names[name].shape, str(names[name].dtype)) == shown, f"{doc} example {index}: {name}"
    for expression, shown in PRINTED.findall(example):
        assert str(eval(expression, names)) == shown, f"{doc} example {index}: {expression}"


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


REFERENCE_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""The docs that say what is true now (the CHANGELOG names the files of its time)."""
REPO_FOLDERS = (".ci/", "configs/", "docs/", "examples/", "scripts/", "stonk_envs/", "tests/", "training/")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
OUTSIDE_THE_REPO = re.compile(r"RULES\.md|(?<![\w.-])(seeds|shared)/")


def named_words(doc: Path) -> list[tuple[int, str]]:
    """``(line number, word)`` for each word of each code span of ``doc``."""
    return [(number, word.strip("'\"").rstrip(".,;:"))
            for number, line in enumerate(doc.read_text().splitlines(), 1)
            for span in CODE_SPAN.findall(line) for word in re.split(r"[\s=,()\[\]]+", span)]


def is_repo_path(word: str) -> bool:
    """A concrete path in the repo's folders: not a pattern (``<game>``, ``*``, ``...``) nor an env id."""
    return (word.startswith(REPO_FOLDERS) and not re.search(r"[<>*{}]|\.\.\.|-v\d+$", word))


def resolves(dotted: str) -> bool:
    """``stonk_envs.a.b.C`` is a module of the package or an attribute of one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            if importlib.util.find_spec(module) is None:
                continue
        except ModuleNotFoundError:
            continue
        if cut == len(parts):
            return True
        found = importlib.import_module(module)
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


@pytest.mark.parametrize("doc", REFERENCE_DOCS, ids=lambda p: p.name)
def test_every_repo_path_a_doc_names_exists(doc):
    missing = [f"{doc.name}:{number}: {word}" for number, word in named_words(doc)
               if is_repo_path(word) and not (ROOT / word.split("#")[0]).exists()]
    assert not missing, "paths that are not in the repo:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", REFERENCE_DOCS, ids=lambda p: p.name)
def test_every_module_a_doc_names_exists(doc):
    missing = [f"{doc.name}:{number}: {word}" for number, word in named_words(doc)
               if re.fullmatch(r"stonk_envs(\.\w+)+", word) and not resolves(word)]
    assert not missing, "modules or names the package lacks:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", REFERENCE_DOCS, ids=lambda p: p.name)
def test_no_doc_points_outside_the_repo(doc):
    lines = [f"{doc.name}:{number}: {line.strip()}" for number, line in enumerate(doc.read_text().splitlines(), 1)
             if OUTSIDE_THE_REPO.search(line)]
    assert not lines, "the docs state the rules themselves, naming no file outside the repo:\n" + "\n".join(lines)


GAME_DOCS = {"stockpile": "stockpile.md", "stocks_and_bombs": "stocks_and_bombs.md", "stonk_market": "stonk_market.md"}
GAME_DOC_SECTIONS = ["## At a glance", "## Rules", "## Options", "## Version history"]


@pytest.mark.parametrize("game", sorted(GAME_DOCS))
def test_a_game_doc_opens_with_the_games_tables(game):
    from stonk_envs.game_facts import glance_table, sizes_table

    text = (ROOT / "docs" / GAME_DOCS[game]).read_text()
    assert f"## At a glance\n\n{glance_table(game)}\n\n{sizes_table(game)}\n" in text, (
        f"docs/{GAME_DOCS[game]}: put game_facts.glance_table() and sizes_table() under its first heading")
    headings = re.findall(r"^## .+$", text, flags=re.MULTILINE)
    assert headings[0] == GAME_DOC_SECTIONS[0]
    assert [h for h in headings if h in GAME_DOC_SECTIONS] == GAME_DOC_SECTIONS


@pytest.mark.parametrize("game", sorted(GAME_DOCS))
def test_a_game_doc_has_a_line_per_observation_version(game):
    from stonk_envs.registry import OBSERVATION_VERSION, RETIRED_VERSIONS

    history = (ROOT / "docs" / GAME_DOCS[game]).read_text().split("## Version history", 1)[1]
    versions = [int(v) for v in re.findall(r"^- \*\*v(\d+)\*\*", history, flags=re.MULTILINE)]
    assert versions == [*sorted(RETIRED_VERSIONS), OBSERVATION_VERSION]


def test_the_readme_sizes_table_is_the_games():
    from stonk_envs.game_facts import all_sizes_table

    assert all_sizes_table() in (ROOT / "README.md").read_text(), "README.md: put game_facts.all_sizes_table() in it"


def code_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of each fenced block of a markdown text, in order."""
    blocks, language, body = [], None, []
    for line in text.splitlines():
        if line.startswith("```"):
            if language is None:
                language, body = line[3:].strip(), []
            else:
                blocks.append((language, "\n".join(body)))
                language = None
        elif language is not None:
            body.append(line)
    return blocks


def shown_commands(doc: Path) -> list[str]:
    """Each shell line of ``doc``'s bash blocks (continued lines joined) and each of its inline code spans."""
    text = doc.read_text()
    lines = [line for language, body in code_blocks(text) if language in ("bash", "sh", "")
             for line in body.replace("\\\n", " ").splitlines()]
    prose = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    return lines + re.findall(r"`([^`\n]+)`", prose.replace("\n", " "))


SHELL_BREAKS = {"&&", "||", ";", "|", "stonk-envs"}
GAMES = ["stockpile", "stocks_and_bombs", "stonk_market"]


def training_command(line: str) -> tuple[str, list[str]] | None:
    """``(subcommand, arguments)`` of a line that starts a training run: ``stonk-envs train`` or ``train-rllib``,
    a script of ``training/``, ``stonk_envs.training.distributed`` or ``scripts/main.sh``; None for any other."""
    command = re.split(r"\s#\s|\s\s+#", line)[0]
    try:
        words = [word for word in shlex.split(command) if word.strip()]
    except ValueError:  # prose with an apostrophe, not a command
        words = command.split()
    for i, word in enumerate(words):
        rest = words[i + 1:]
        rest = rest[:next((j for j, w in enumerate(rest) if w in SHELL_BREAKS), len(rest))]
        if word in ("train", "train-rllib") and i and words[i - 1] == "stonk-envs":
            return word, rest
        if word.endswith("training/ppo_selfplay.py") or word == "stonk_envs.training.distributed":
            return "train", rest
        if word.endswith("training/sb3_selfplay.py"):
            return "train", [*rest, "trainer=sb3"]
        if word.endswith("scripts/main.sh"):
            return "train", ["--config", "stocks_and_bombs", "run_dir=runs/stocks_and_bombs", *rest]
    return None


def shown_training_commands() -> list[tuple[str, str, list[str]]]:
    """``(doc name, subcommand, arguments)`` of every training command the docs show; ``<game>`` stands for each
    game, and an override whose value is a placeholder (``seed=<s>``) is left out."""
    commands = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in shown_commands(doc):
            found = training_command(line)
            if found is None:
                continue
            command, arguments = found
            for game in GAMES if "<game>" in line else [None]:
                filled = [arg.replace("<game>", game) if game else arg for arg in arguments]
                commands.append((doc.name, command, [arg for arg in filled if not re.search(r"=<[^>]*>$", arg)]))
    return commands


def test_the_docs_show_training_commands():
    shown = {(doc, command) for doc, command, _ in shown_training_commands()}
    assert {("README.md", "train"), ("training.md", "train"), ("integrations.md", "train-rllib")} <= shown


def test_every_training_command_the_docs_show_passes_its_config_validation():
    from stonk_envs import configs
    from stonk_envs.integrations.rllib_config import load_rllib_config
    from stonk_envs.training.config import check_opponents, load_config

    refused = []
    for doc, command, arguments in shown_training_commands():
        if "--resume" in arguments:
            continue  # a run folder's own config
        config = arguments[arguments.index("--config") + 1] if "--config" in arguments else None
        if config is not None and not Path(config).is_file() and Path(config).stem in configs.names():
            config = Path(config).stem  # a copy of a shipped config, as the doc says
        overrides = [arg for arg in arguments if "=" in arg and not arg.startswith("-")]
        try:
            if command == "train":
                check_opponents(load_config(config, overrides))
            else:
                load_rllib_config(config, overrides)
        except ValueError as err:
            refused.append(f"{doc}: stonk-envs {command} {' '.join(arguments)}: {err}")
    assert not refused, "\n".join(refused)


def readme_section(title: str) -> str:
    """The README's text under ``## title``, up to the next such heading."""
    return (ROOT / "README.md").read_text().split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_readme_install_section_gives_the_python_versions_and_every_extra_with_its_packages():
    from packaging.requirements import Requirement

    project, install = pyproject(), readme_section("Install")
    minimum = re.fullmatch(r">=(3\.\d+)", project["requires-python"]).group(1)
    assert f"Python {minimum} or newer" in install
    rows = {cells[0].strip(" `"): cells[1] for cells in (line.strip("|").split(" | ") for line in install.splitlines()
                                                         if line.startswith("| `"))}
    assert set(rows) == set(project["optional-dependencies"])
    for extra, requirements in project["optional-dependencies"].items():
        packages = set()
        for requirement in map(Requirement, requirements):
            packages |= requirement.extras if requirement.name == project["name"] else {requirement.name}
        assert set(re.findall(r"`([^`]+)`", rows[extra])) == packages, f"README extras table, row {extra}"


def test_the_readme_tells_the_main_job_in_at_most_100_words():
    paragraph = re.search(r"^\*\*The main job\*\*.*?(?=\n\n)", (ROOT / "README.md").read_text(),
                          flags=re.DOTALL | re.MULTILINE).group()
    assert len(paragraph.split()) <= 100


def test_the_license_and_the_citation_are_the_projects():
    project = pyproject()
    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) 2026 The stonk_envs authors\n")
    citation = (ROOT / "CITATION.cff").read_text()
    assert re.search(r"^version: (.+)$", citation, flags=re.MULTILINE).group(1) == project["version"]
    assert re.search(r"^license: (.+)$", citation, flags=re.MULTILINE).group(1) == project["license"]


RESULTS_DOCS = {"training_results.md", "evaluation_results.md", "benchmarks.md", "stonk_market_training.md"}
"""The docs of measured results, whose provenance lines are written from their result files."""


def test_at_most_five_lines_of_the_other_docs_give_a_clock_time():
    lines = [f"{doc.name}: {line}" for doc in REFERENCE_DOCS if doc.name not in RESULTS_DOCS
             for line in doc.read_text().splitlines()
             if re.search(r"\b\d{1,2}:\d{2}\b.*UTC|UTC.*\b\d{1,2}:\d{2}\b", line)]
    assert len(lines) <= 5, "\n".join(lines)


def test_every_stonk_envs_command_the_docs_show_parses(monkeypatch, tmp_path):
    """Each ``stonk-envs`` line of a bash block has a subcommand, options and values the command line takes (files
    it reads need not exist here; ``<game>`` stands for a game)."""
    from stonk_envs import cli, cli_args
    from stonk_envs.safe_load import TRUST_ENV

    for module in [m for name, m in sys.modules.items() if name.startswith("stonk_envs")]:
        for name in ("input_file", "input_dir"):  # also where a module imported the check by name
            if callable(getattr(module, name, None)):
                monkeypatch.setattr(module, name, str)
    monkeypatch.setattr(cli_args, "input_file", str)
    monkeypatch.setattr(cli_args, "input_dir", str)
    monkeypatch.setenv(TRUST_ENV, "")  # --trust-file sets it; restored afterwards
    monkeypatch.chdir(tmp_path)
    parser = cli.build_parser()
    refused, parsed = [], 0
    for doc in REFERENCE_DOCS:
        for language, body in code_blocks(doc.read_text()):
            for line in body.replace("\\\n", " ").splitlines() if language in ("bash", "sh", "") else []:
                words = shlex.split(re.split(r"\s#\s|\s\s+#", line)[0].replace("<game>", "stockpile"))
                if words[:1] != ["stonk-envs"] or len(words) < 2 or words[1].endswith(":"):  # an error message
                    continue
                parsed += 1
                try:
                    parser.parse_args(words[1:])
                except SystemExit:
                    refused.append(f"{doc.name}: {line.strip()}")
    assert parsed > 30 and not refused, "\n".join(refused)


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
