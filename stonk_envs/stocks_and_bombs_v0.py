"""Retired (observations v0): importing it raises an error that names what replaced it."""

from stonk_envs.registry import retired_module_error

raise retired_module_error(__name__)
