"""Seed 003, Sugawara et al.: its published figures (``published``) and the report section
that sets ours beside them (``section``)."""
