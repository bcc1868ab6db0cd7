"""cipherbench: design, verify and measure block-cipher hardware with open tools."""

__version__ = "0.1.0"
