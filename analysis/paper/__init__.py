"""The paper's studies: sweeps over sizes (sweep), Tables 4 and 3 (study), Table 2 on this host (table2), and the
main job (main_job, its report's first lines in headline)."""
