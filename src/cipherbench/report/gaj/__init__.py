"""Seed 001, Gaj & Chodowiec: its published figures (``published``) and the report section
that sets ours beside them (``section``)."""
