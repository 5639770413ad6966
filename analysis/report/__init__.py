"""The validation report of a sweep: tables, plots and every command (document.py)."""
from .document import *  # noqa: F401,F403
