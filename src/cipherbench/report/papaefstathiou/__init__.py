"""Seed 002, Papaefstathiou et al.: its published figures (``published``) and the report
section that sets ours beside them (``section``)."""
