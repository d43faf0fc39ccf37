"""Benchmarks: steps/s of every game's envs and batched engine beside PettingZoo peers."""
