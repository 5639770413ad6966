"""matplotlib, imported where a plot is drawn rather than where a module is loaded: every subcommand's --help and
its refusal of bad input work on a python3 without it, and the plot that needs it says so then."""
import importlib


class LazyModule:
    def __init__(self, name):
        self._name, self._module = name, None

    def __getattr__(self, attribute):
        if self._module is None:
            import matplotlib
            matplotlib.use("Agg")  # the file backend, before pyplot is first imported
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)


pyplot = LazyModule("matplotlib.pyplot")
ticker = LazyModule("matplotlib.ticker")
colors = LazyModule("matplotlib.colors")
