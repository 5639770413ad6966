"""What-if studies: machine-file fields varied, modelled and simulated (study.py)."""
from .study import *  # noqa: F401,F403
