"""The report's section on authenticated-encryption engines (the message family)."""
