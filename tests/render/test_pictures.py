"""rgb_array pictures: shape, every mode through PettingZoo's render_test, hidden cards, human fallback."""


import numpy as np
import pytest
from pettingzoo.test import render_test

from stonk_envs import render as pictures
from stonk_envs.games_index import game_module
from stonk_envs.render.window import HumanView
from tests.render.conftest import GAMES, SHORT


@pytest.mark.parametrize("name", GAMES)
def test_render_test_passes_in_every_mode(name):
    module = game_module(name)
    assert module.env().metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    render_test(lambda render_mode=None: module.env(render_mode=render_mode, render_seat=1, **SHORT[name]))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("num_players", [4, 5])
def test_frames_keep_one_size_through_a_game(name, num_players):
    env = game_module(name).parallel_env(render_mode="rgb_array", num_players=num_players, **SHORT[name])
    observations, _ = env.reset(seed=3)
    width, height = pictures.frame_size(env.table.game)
    rng = np.random.default_rng(0)
    for _ in range(6):
        frame = env.render()
        assert frame.shape == (height, width, 3) and frame.dtype == np.uint8
        colours = frame.reshape(-1, 3).astype(np.int32) @ np.array([65536, 256, 1])
        assert len(np.unique(colours)) > 20  # a drawn table, not a blank
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"])))
            for a, o in observations.items()
            if o["action_mask"].any()
        }
        observations, *_ = env.step(actions)


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_sees_less_than_everything(name):
    """From a seat, others' hidden cards or targets are drawn as backs: the picture differs from the full one."""
    module = game_module(name)
    seat_view = module.parallel_env(render_mode="rgb_array", render_seat=0, **SHORT[name])
    full_view = module.parallel_env(render_mode="rgb_array", **SHORT[name])
    seat_view.reset(seed=1)
    full_view.reset(seed=1)
    assert seat_view.state().tolist() == full_view.state().tolist()
    header = 44  # the title bar names the view, so compare below it
    assert not np.array_equal(seat_view.render()[header:], full_view.render()[header:])


@pytest.mark.parametrize("name", GAMES)
def test_picture_follows_the_state(name):
    """Two different deals give different pictures; the same deal gives the same picture."""
    module = game_module(name)
    frames = []
    for seed in (1, 1, 2):
        env = module.parallel_env(render_mode="rgb_array", **SHORT[name])
        env.reset(seed=seed)
        frames.append(env.render())
    assert np.array_equal(frames[0], frames[1])
    assert not np.array_equal(frames[0], frames[2])


def test_human_mode_without_a_display_prints_the_text(monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    env = game_module("stocks_and_bombs").parallel_env(render_mode="human", render_seat=2)
    env.reset(seed=0)
    assert env.render() is None
    out = capsys.readouterr().out
    assert "Stocks & Bombs  round 1" in out and "player_2 (you)" in out
    assert env.table._window.fallback


def test_human_mode_with_a_display_shows_the_picture_in_a_window(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # a display that needs no screen
    env = game_module("stonk_market").parallel_env(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    view = env.table._window
    assert not view.fallback
    surface = pygame.display.get_surface()
    width, height = pictures.frame_size(env.table.game)
    assert surface.get_size() == (width, height)
    shown = np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2))
    assert np.array_equal(shown, pictures.draw(env.table.game, env.table.states, 0, None))
    env.close()
    assert view._screen is None


def test_window_falls_back_to_text_when_it_cannot_open(monkeypatch, capsys):
    monkeypatch.setenv("DISPLAY", ":99")  # names a display that does not exist
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    view = HumanView("test")
    view.show(np.zeros((4, 4, 3), np.uint8), "the table as text")
    assert capsys.readouterr().out == "the table as text\n"
    assert view.fallback


@pytest.mark.parametrize("name", GAMES)
def test_the_seats_to_act_are_marked(name, monkeypatch):
    """The picture marks who decides next: without the mark it is another picture."""
    env = game_module(name).parallel_env(render_mode="rgb_array", **SHORT[name])
    env.reset(seed=2)
    marked = env.render()
    drawer = pictures.drawer(env.table.game)
    monkeypatch.setattr(drawer, "acting_seats", lambda game, states, i: np.zeros(game.num_players, np.bool_))
    assert not np.array_equal(env.render(), marked)


@pytest.mark.parametrize(("name", "num_players"), [("stonk_market", 6), ("stocks_and_bombs", 6), ("stockpile", 5)])
def test_the_event_strip_shows_every_move_of_a_step(name, num_players):
    """A tick's moves are one a seat: each has its own line, so a void one is never left out."""
    env = game_module(name).parallel_env(num_players=num_players, **SHORT[name])
    env.reset(seed=0)
    game, states = env.table.game, env.table.states
    lines = 1 if name == "stockpile" else num_players
    moves = [f"player_{p}: wait a little" for p in range(lines)]
    for k in range(lines):
        void = [*moves[:k], f"player_{k}: take a bid - VOID: player_9 took first", *moves[k + 1 :]]
        other = [*moves[:k], f"player_{k}: take a bid - VOID: player_8 took first", *moves[k + 1 :]]
        drawn = [pictures.draw(game, states, 0, None, events) for events in (void, other)]
        assert not np.array_equal(*drawn)


def test_a_long_void_reason_is_drawn_whole_at_a_smaller_size():
    env = game_module("stonk_market").parallel_env()
    env.reset(seed=0)
    game, states = env.table.game, env.table.states
    reason = "player_1's bid or player_0's announcement had changed: this tick player_1 did 'bid 2 x Slinko "
    line = f"player_0: take player_1's bid of 2 x BioHippo - VOID: {reason}Logistics on player_2's 3 x Blammo!'"
    ending = [line.replace("Blammo!'", "Greedle'")]
    drawn = [pictures.draw(game, states, 0, None, events) for events in ([line], ending)]
    assert not np.array_equal(*drawn)
