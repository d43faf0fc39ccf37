"""The page in a real headless Chromium (Playwright, the system's ``chromium``): one whole short game of each
game against the rule players, played by clicking legal moves (and once by typing a key), with the
page's text and every view it received checked for the other seats' hidden cards, then the record
replayed on the page; two browsers at one table; every request kept to the server (no network).
"""

from __future__ import annotations

import os
import random
import shutil

import pytest

from stonk_envs.records import GameRecord, replay
from tests.serve.helpers import SHORT, address, leaks, secret_lines, start_server, states_at

pytestmark = pytest.mark.slow

KEEP_VIEWS = """
window.received = [];
const fetched = window.fetch;
window.fetch = async (...args) => {
  const response = await fetched(...args);
  if (String(args[0]).startsWith("/api/state")) window.received.push(await response.clone().text());
  return response;
};
"""
"""Kept in each page: the text of every view it received, as received."""


def chromium_path() -> str:
    path = os.environ.get("STONK_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("no chromium on this machine: apt-get install -y chromium (or set STONK_CHROMIUM)")
    return path


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), headless=True)
        yield launched
        launched.close()


@pytest.fixture
def served(tmp_path):
    server = start_server(tmp_path / "records", poll_seconds=5.0)
    yield server, address(server)
    server.shutdown_tables()


def offline_page(browser, base: str, elsewhere: list[str]):
    """A page in a fresh context (its own session storage) whose requests beyond the server are refused and
    listed in ``elsewhere``."""
    context = browser.new_context(bypass_csp=True)  # Playwright waits by evaluating text, which the CSP refuses
    context.add_init_script(KEEP_VIEWS)

    def only_the_server(route):
        if route.request.url.startswith(base):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_server)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def start_game(page, base: str, game: str, seats: list[str]) -> str:
    n, options = SHORT[game]
    page.goto(base + "/")
    page.select_option("#game", game)
    page.select_option("#num-players", str(n))
    for seat, spec in enumerate(seats):
        page.select_option(f"#seat-{seat}", spec)
    page.click("details summary")
    for name, value in options.items():
        page.fill(f"#option-{name}", str(value))
    page.fill("#seed", "11")
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    return page.evaluate("location.hash").removeprefix("#table=")


def check_received(page, table, seat: int) -> int:
    """Every view the page received holds none of the other seats' hidden lines; returns how many there were."""
    import json

    views = [json.loads(text) for text in page.evaluate("window.received")]
    assert views and all(view["seat"] == seat for view in views)
    for view in views:
        assert leaks(table, view, seat) == [], view["step"]
    return len(views)


def play_to_the_end(page, table, seat: int, rng: random.Random, type_keys: int = 0) -> int:
    """Click (or for the first ``type_keys`` moves, type) a legal move whenever the seat acts, until the game
    ends; at each move the page's text holds none of the other seats' hidden lines. Returns the moves made."""
    made = 0
    while True:
        page.wait_for_function(
            "document.body.dataset.over === 'true' || "
            "(!document.getElementById('move-box').hidden && document.querySelector('#moves button.move'))")
        if page.evaluate("document.body.dataset.over") == "true":
            return made
        step = int(page.evaluate("document.body.dataset.step"))
        hidden = secret_lines(table.game, states_at(table, step), seat)
        shown = page.inner_text("body")
        assert [line for line in hidden if line in shown] == []
        keys = [int(k) for k in page.eval_on_selector_all("#moves button.move", "bs => bs.map(b => b.dataset.key)")]
        key = rng.choice(keys)
        if made < type_keys:
            page.keyboard.type(str(key))
            assert page.input_value("#key") == str(key)
            page.keyboard.press("Enter")
        else:
            page.click(f"#moves button.move[data-key='{key}']")
        page.wait_for_function(f"document.body.dataset.step !== '{step}' || document.body.dataset.over === 'true'")
        made += 1


def click_a_move(page, rng: random.Random) -> str | None:
    """Wait for a seat's move (None: the game ended instead), click a legal one and wait until the page
    shows it chosen or the step passed; returns the seat that moved (``player_K``)."""
    page.wait_for_function(
        "document.body.dataset.over === 'true' || (!document.getElementById('move-box').hidden && "
        "document.querySelector('#moves button.move') && !document.querySelector('#moves button.chosen'))")
    if page.evaluate("document.body.dataset.over") == "true":
        return None
    step = page.evaluate("document.body.dataset.step")
    seat = page.inner_text("#title").split(" ")[2]
    keys = page.eval_on_selector_all("#moves button.move", "bs => bs.map(b => b.dataset.key)")
    page.click(f"#moves button.move[data-key='{rng.choice(keys)}']")
    page.wait_for_function(f"document.querySelector('#moves button.chosen') || document.body.dataset.step !== '{step}'"
                           " || document.body.dataset.over === 'true'")
    return seat


def replay_on_the_page(page, record: GameRecord) -> None:
    from playwright.sync_api import expect

    page.click("#replay-this")
    frame = page.frame_locator("#replay-frame")
    total = len(record.actions)
    expect(frame.locator("#label")).to_have_text("the deal")
    frame.locator("#slider").evaluate("(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); }")
    assert frame.locator("#label").inner_text() == f"step {total}/{total} (game over)"
    assert frame.locator("#summary").inner_text().splitlines()[-1].startswith("game over: ")
    frame.locator("#prev").click()
    assert frame.locator("#label").inner_text() == f"step {total - 1}/{total}"


@pytest.mark.parametrize("game", list(SHORT))
def test_one_whole_game_against_the_rule_players(browser, served, game):
    from playwright.sync_api import expect

    server, base = served
    elsewhere: list[str] = []
    page = offline_page(browser, base, elsewhere)
    n, _ = SHORT[game]
    others = (["heuristic", "random"] * n)[: n - 1]
    table_id = start_game(page, base, game, ["you", *others])
    table = server.lobby.tables[table_id]
    assert table.names == ["person", *others]
    assert secret_lines(table.game, states_at(table, 0), 0)  # there are hidden cards to keep
    page.wait_for_function("document.getElementById('picture').naturalWidth > 0")
    if game == "stocks_and_bombs":  # the connection lost and back: the page says so and the seat plays on
        page.context.set_offline(True)
        expect(page.locator("#message")).to_contain_text("lost the connection to the server", timeout=30_000)
        page.context.set_offline(False)
        expect(page.locator("#message")).to_have_text("connection back", timeout=30_000)
    made = play_to_the_end(page, table, 0, random.Random(game), type_keys=2)
    assert made >= 2
    page.wait_for_function("document.getElementById('record').textContent.endsWith('.json')")
    winners = page.inner_text("#winners")
    assert winners == table.view(0)["result"]["winners"] and winners.startswith("game over: ")
    check_received(page, table, 0)
    record = GameRecord.load(table.saved)
    replay(record)
    assert record.finished and record.players[0] == "human"
    replay_on_the_page(page, record)
    assert elsewhere == []


def test_two_browsers_at_one_table_each_receive_only_their_own_cards(browser, served):
    from playwright.sync_api import expect

    server, base = served
    elsewhere: list[str] = []
    first = offline_page(browser, base, elsewhere)
    table_id = start_game(first, base, "stonk_market", ["you", "person", "heuristic"])
    expect(first.locator("#share-link")).to_have_value(f"{base}/#join={table_id}")  # filled once the table shows
    second = offline_page(browser, base, elsewhere)
    second.goto(first.input_value("#share-link"))
    second.wait_for_selector("#table:not([hidden])")
    second.wait_for_function("document.getElementById('title').textContent.startsWith('stonk_market - player_1 (you)')")
    table = server.lobby.tables[table_id]
    rng = random.Random(0)
    while (click_a_move(first, rng) is not None) | (click_a_move(second, rng) is not None):
        pass
    for seat, page in enumerate((first, second)):
        page.wait_for_function("document.body.dataset.over === 'true'")
        own = secret_lines(table.game, states_at(table, 0), 1 - seat)  # lines the other seat must not see ...
        mine = [line for line in own if line.startswith(f"player_{seat}:")]
        assert mine  # ... among them this seat's own hand, which this page does show
        assert mine[0].replace(f"player_{seat}:", f"player_{seat} (you):") in page.evaluate("window.received")[0]
        assert check_received(page, table, seat) >= 2
    assert elsewhere == []


def test_one_browser_holding_two_seats_goes_to_the_seat_whose_move_it_is(browser, served):
    server, base = served
    elsewhere: list[str] = []
    page = offline_page(browser, base, elsewhere)
    table_id = start_game(page, base, "stocks_and_bombs", ["you", "you", "heuristic", "heuristic"])
    table = server.lobby.tables[table_id]
    tabs = page.eval_on_selector_all("#seat-tabs button", "bs => bs.map(b => b.textContent)")
    assert tabs == ["player_0", "player_1"]
    rng = random.Random(1)
    seats_played = []
    while (seat := click_a_move(page, rng)) is not None:
        seats_played.append(seat)
    assert table.over and set(seats_played) == {"player_0", "player_1"}
    assert len(seats_played) == 2 * len(table.history)  # both seats moved in every tick, from one page
    assert elsewhere == []
