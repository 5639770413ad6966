"""explain: which mechanism of the machine, at which value, accounts for a measured GUPS column (verdict.py)."""
from .verdict import *  # noqa: F401,F403
