"""Apex-Map surfaces over the (alpha, L) plane, measured, simulated and modelled (study.py)."""
from .study import *  # noqa: F401,F403
