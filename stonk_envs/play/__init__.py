"""Playing a game in the terminal against players or other people."""
