"""torus-gups analysis: sweeps of gups-model, gups-sim and gups, plots and a validation report."""
