"""Running the project's programs: where they are and their command lines (programs), the Task every run is and
the one function that runs and stamps it, here side by side (launcher) or as a Slurm job array (slurm)."""
