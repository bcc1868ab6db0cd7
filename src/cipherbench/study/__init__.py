"""A study (TOML) -> jobs (design x target x settings) -> results in the store.

Study file::

    name = "default"
    designs = ["aes-128/iterative", "aes/iterative"]
    cores = ["examples/aes128-command/core.toml"]  # optional: designers' own cores
                                         # (docs/your-core.md), relative to the study file
    targets = ["generic", "asic", "fpga-ecp5", "fpga-ice40"]
    skip_unavailable = true              # optional: leave out targets whose tools are missing

and each flow's own keys, which the flow declares (``study_keys``, ``study_settings``):

    liberty = ["osu050"]                 # asic: built-in kit names (osu018, osu035, osu050) or
                                         # Liberty paths; default osu018. --liberty,
                                         # $CIPHERBENCH_LIBERTY or $PDK_ROOT add one.
    asic_goals = ["area", "speed"]       # asic: the synthesis ends
    asic_speed_grades = 5                # asic: the NSA's speed grades (seed 000 section 3.2)
    asic_sequential = ["flipflop", "latch"]  # asic: also every ASIC job with latch pairs
    asic_power = false                   # asic: no power measurement
    synthesis_hierarchy = "bottom-up"    # generic and asic: each distinct module mapped once
    fpga_fmax_search = true              # fpga: raise the requested clock (docs/flows.md)
    fpga_seeds = [1, 2, 3]               # fpga: placement seeds, best and spread reported
    layout_tech = "osu018"               # asic-layout: the cell kit
    layout_density = 0.5                 # asic-layout: its placement density
    layout_synthesis = "speed"           # asic-layout: the netlist it places (speed, area, qflow)

``definition.py`` reads and checks a study, ``planning.py`` plans its jobs and speed grades,
``running.py`` runs them; a job itself (its key, measurement, netlist check and provenance) is
``cipherbench.jobs``. Every job is content-addressed: its cache key hashes the canonical design
spec, the generator's source digest, the target, its settings and the tool versions (and the
Liberty's hash). A job whose key has an ok row in the store is not recomputed.
"""

from __future__ import annotations

from ..jobs import Job, JobKey, RunSummary, job_key, reusable
from .definition import DEFAULT_DESIGNS, Study, check_targets, default_study, known_keys, load_study
from .planning import (
    grade_delays_ps, grade_points, module_grade_ends, plan_jobs, plan_speed_grades,
)
from .running import run_study

__all__ = ["DEFAULT_DESIGNS", "Job", "JobKey", "RunSummary", "Study", "check_targets",
           "default_study", "grade_delays_ps", "grade_points", "job_key", "known_keys",
           "load_study", "module_grade_ends", "plan_jobs", "plan_speed_grades", "reusable",
           "run_study"]
