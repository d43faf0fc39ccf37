"""The pieces shared by every game: the adapter, the tick mechanism, rewards and randomness."""
