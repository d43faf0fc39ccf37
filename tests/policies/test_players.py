"""Player specs, the random player and the action-choosing helper."""

import numpy as np
import pytest

from stonk_envs import registry
from stonk_envs.policies import Policy, RandomPolicy, heuristic_player, make_player
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.players import builtin_player, builtin_player_names
from stonk_envs.policies.sampling import choose


def test_specs_resolve_to_players():
    assert isinstance(make_player("random", "stocks_and_bombs", 4), RandomPolicy)
    mine = RandomPolicy()
    assert make_player(mine, "stocks_and_bombs", 4) is mine
    for game in registry.names():
        assert isinstance(make_player("heuristic", game, 4), Policy)


def test_every_built_in_name_makes_a_legal_player_of_its_game():
    for game in registry.names():
        names = builtin_player_names(game)
        assert names[:2] == ["random", "heuristic"]
        observation_size, num_actions = game_sizes(game, 4)
        masks = np.zeros((3, num_actions), np.int8)
        masks[:, 0] = 1
        for name in names:
            player = make_player(name, game, 4)
            actions = player.act(np.zeros((3, observation_size), np.float32), masks, np.random.default_rng(0))
            assert actions.shape == (3,)
    expected = ["random", "heuristic", "steady", "cautious", "aggressive", "basic"]
    assert builtin_player_names("stocks_and_bombs") == expected


def test_bad_specs_are_named(tmp_path):
    with pytest.raises(ValueError, match=r"'grandmaster': not one of \['random', 'heuristic', 'champion'\] for "
                                         "stockpile"):
        make_player("grandmaster", "stockpile", 4)
    with pytest.raises(ValueError, match="nor an existing policy file"):
        make_player(str(tmp_path / "missing.zip"), "stocks_and_bombs", 4)
    with pytest.raises(ValueError, match="a player is a built-in player's name, a path or a Policy, got 3"):
        make_player(3, "stocks_and_bombs", 4)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        heuristic_player("chess", 4)
    with pytest.raises(ValueError, match=r"stockpile has no built-in player 'cautious'; choose one of \['random'"):
        builtin_player("stockpile", "cautious", 4)


def test_random_player_is_uniform_over_legal_actions():
    masks = np.zeros((20000, 5), np.int8)
    masks[:, [1, 3, 4]] = 1
    actions = RandomPolicy().act(np.zeros((20000, 2), np.float32), masks, np.random.default_rng(0))
    counts = np.bincount(actions, minlength=5)
    assert counts[0] == counts[2] == 0
    assert np.all(np.abs(counts[[1, 3, 4]] / 20000 - 1 / 3) < 0.015)


def test_choose_takes_the_best_legal_logit_or_samples_legal_ones():
    logits = np.array([[5.0, 1.0, 2.0], [0.0, 0.0, 9.0]])
    masks = np.array([[0, 1, 1], [1, 1, 0]], np.int8)
    assert choose(logits, masks, np.random.default_rng(0), True).tolist() == [2, 0]
    sampled = choose(np.repeat(logits, 5000, axis=0), np.repeat(masks, 5000, axis=0), np.random.default_rng(1), False)
    first, second = sampled[:5000], sampled[5000:]
    assert set(first.tolist()) == {1, 2} and set(second.tolist()) == {0, 1}
    # softmax over the legal logits 1 and 2: P(2) = e / (1 + e) = 0.731; logits 0 and 0: one half
    assert abs(np.mean(first == 2) - np.e / (1 + np.e)) < 0.03
    assert abs(np.mean(second == 0) - 0.5) < 0.03
