"""Every live agent of a Parallel env has a legal action: a waiting Stockpile seat gets one no-op."""

import numpy as np
import pytest

from stonk_envs import stockpile_v1
from stonk_envs.games.stockpile import actions as act


@pytest.mark.parametrize("n", [3, 4, 5])
def test_waiting_seats_get_the_single_pass_action(n):
    env = stockpile_v1.parallel_env(num_players=n)
    aec = stockpile_v1.raw_env(num_players=n)
    observations, _ = env.reset(seed=n)
    aec.reset(seed=n)
    game = env.table.game
    bases = np.zeros(7, np.int64)
    act.block_bases(n, len(game.config.bid_values), game.config.stock_per_company, bases)
    assert game.pass_action == bases[act.BLOCK_SELL] + act.SELL_DONE
    rng = np.random.default_rng(n)
    steps = 0
    while env.agents:
        actor = aec.agent_selection
        for agent, obs in observations.items():
            mask = obs["action_mask"]
            assert mask.sum() >= 1, f"{agent} is live with an empty mask"
            if agent == actor:
                # the deciding seat's mask is the AEC env's, exactly
                np.testing.assert_array_equal(mask, aec.observe(agent)["action_mask"])
            else:
                assert np.flatnonzero(mask).tolist() == [game.pass_action]
                # the AEC env, in which only the selected agent acts, keeps its all-zero mask
                assert aec.observe(agent)["action_mask"].sum() == 0
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        state_before = env.state()
        observations, _, _, _, _ = env.step(actions)
        aec.step(actions[actor])
        np.testing.assert_array_equal(env.state(), aec.state())  # the no-ops changed nothing
        assert not np.array_equal(state_before, env.state())
        steps += 1
    assert steps > 50 and aec.terminations[aec.agents[0]]
