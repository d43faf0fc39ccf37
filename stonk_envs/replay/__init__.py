"""Replaying a game record: its moments (the table after each step, the moves named in words),
stepped through in the terminal or exported as a GIF, an MP4 or an offline HTML page."""
