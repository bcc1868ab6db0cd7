"""A designer's own core, verified and measured beside the generated ones (docs/your-core.md).

``description.py`` reads and checks the TOML description, ``ports.py`` checks it against the top
module's ports, ``harness.py`` presents the core with the common interface, ``design.py`` writes
its design folder, ``spec.py`` makes it a design every study, job and flow takes, and
``measure.py`` picks what ``cipherbench measure`` compares it with.
"""
