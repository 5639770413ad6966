"""matplotlib, imported where a plot is drawn rather than where a module is loaded: every subcommand's --help and
its refusal of bad input work on a python3 without it, and the plot that needs it says so then."""
import importlib
import sys


class MissingPlotter(ValueError):
    """A plot asked for on a python3 without matplotlib: one error line (the analysis reports a ValueError so)."""


class LazyModule:
    def __init__(self, name):
        self._name, self._module = name, None

    def __getattr__(self, attribute):
        if self._module is None:
            try:
                import matplotlib
                matplotlib.use("Agg")  # the file backend, before pyplot is first imported
                self._module = importlib.import_module(self._name)
            except ImportError as missing:
                raise MissingPlotter(f"the plots need matplotlib, which {sys.executable} lacks (run /usr/bin/python3 "
                                     "-m analysis; Debian's python3-matplotlib, which bash .ci/setup installs); the "
                                     "results written before the plots are kept") from missing
        return getattr(self._module, attribute)


pyplot = LazyModule("matplotlib.pyplot")
ticker = LazyModule("matplotlib.ticker")
colors = LazyModule("matplotlib.colors")
