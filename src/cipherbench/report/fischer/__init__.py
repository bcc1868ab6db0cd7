"""Seed 004, Fischer: its published figures (``published``) and the report section that
sets ours beside them (``section``)."""
