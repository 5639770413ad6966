"""The global-exchange probes as a study, measured on this host and simulated (study.py)."""
from .study import *  # noqa: F401,F403
