"""The docs' result tables are written from the result files, and a figure edited by hand is found."""

import importlib.util
import json
import math
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("write_results_tables", ROOT / "scripts" / "write_results_tables.py")
tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tables)


def seed_result(step, random_rate, share, ci, copies, mixed, points, heuristic_points):
    return {
        "policy_step": step,
        "against": {"random": {"win_rate": random_rate},
                    "heuristic": {"win_share": share, "share_ci": list(ci)}},
        "exploit": {"copies": [{"budget": 8_000_000, "win_share": copies}],
                    "mixed": [{"budget": 8_000_000, "win_share": mixed}]},
        "liveliness": {"points_per_game": points, "heuristic_points_per_game": heuristic_points,
                       "points_ratio": points / heuristic_points},
    }


RESULT = {
    "name": "toy", "command": "python scripts/measure_config.py --config toy", "commit": "abc1234",
    "date": "2026-12-08", "machine": "a CPU, 2 cores",
    "seeds": {
        "0": seed_result(100, 0.97, 0.50, (0.47, 0.53), 0.35, 0.30, 9.0, 10.0),
        "1": seed_result(200, 0.96, 0.45, (0.42, 0.48), 0.41, 0.20, 4.0, 10.0),
        "2": seed_result(300, 0.99, 0.55, (0.52, 0.58), 0.30, 0.38, 6.0, 10.0),
    },
}


def test_the_worst_seed_is_the_lowest_or_the_highest_as_the_bar_reads():
    rows = [tables.figures(seed) for seed in RESULT["seeds"].values()]
    assert tables.worst(rows) == {"random": 0.96, "heuristic": 0.42, "copies": 0.41, "mixed": 0.38,
                                  "points": pytest.approx(0.4)}


def test_a_rendered_table_holds_each_seed_the_worst_and_the_bars():
    text = tables.render(RESULT)
    assert "| 1 | 200 | 0.960 | 0.450 [0.420, 0.480] | 0.410 | 0.200 | 4.00 (10.00) |" in text
    assert "| worst | | 0.960 | lower bound 0.420 | 0.410 | 0.380 | 0.40 of the heuristic's |" in text
    assert "| best response at a table of copies: share | 0.410 | <= 0.40 | **no** |" in text
    assert "| vs 3 heuristic: share's lower 95% bound | 0.420 | >= 0.40 | yes |" in text
    assert "| points at a table of copies, against the heuristic's | 0.400 | >= 0.50 | **no** |" in text
    assert "at `abc1234` on 2026-12-08, a CPU, 2 cores." in text


def test_a_figure_edited_by_hand_is_rewritten_and_a_missing_file_named(tmp_path):
    (tmp_path / "toy.json").write_text(json.dumps(RESULT))
    doc = "intro\n<!-- results: toy -->\nold\n<!-- /results -->\nafter\n"
    written = tables.rewrite(doc, tmp_path)
    assert written.startswith("intro\n<!-- results: toy -->\n| seed |")
    assert written.endswith("<!-- /results -->\nafter\n")
    assert tables.rewrite(written, tmp_path) == written
    edited = written.replace("0.410 | 0.200", "0.390 | 0.200")
    assert edited != written and tables.rewrite(edited, tmp_path) == written
    with pytest.raises(ValueError, match="a results block names 'gone'"):
        tables.rewrite("<!-- results: gone -->\n<!-- /results -->", tmp_path)


def test_a_result_without_a_mixed_table_shows_none():
    result = json.loads(json.dumps(RESULT))
    for seed in result["seeds"].values():
        del seed["exploit"]["mixed"]
    assert math.isnan(tables.figures(result["seeds"]["0"])["mixed"])
    assert "| 0 | 100 | 0.970 | 0.500 [0.470, 0.530] | 0.350 | - |" in tables.render(result)


def test_every_results_table_in_the_docs_matches_its_file():
    assert tables.main(["--check"]) == 0, "run python scripts/write_results_tables.py"
