#!/usr/bin/env python
"""Runnable equivalent of ``stonk-envs evaluate`` (same arguments)."""

import sys

from stonk_envs.cli import main

if __name__ == "__main__":
    sys.exit(main(["evaluate", *sys.argv[1:]]))
