"""python3 -m analysis SUBCOMMAND (see --help)"""
import sys

try:
    from .cli import entry
except ModuleNotFoundError as missing:
    # Another python3 earlier on PATH (pyenv, a venv) often lacks Debian's packages: one line that says which
    # interpreter ran and what to use instead, not a traceback.
    sys.exit(f"analysis: error: {missing.name} is not installed for {sys.executable}; run /usr/bin/python3 -m analysis "
             f"(Debian's python3-matplotlib and python3-markdown: bash .ci/setup installs them) or pip install "
             f"{missing.name}")

entry()
