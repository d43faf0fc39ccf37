"""Playing in the browser: a local web server (``stonk-envs serve``) that holds each table's game and
hidden cards, and sends each seat's browser only that seat's view, in the words of ``stonk-envs play``."""
