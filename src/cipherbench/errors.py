"""The one exception type users see: its message is a single line that names the fix."""


class CipherbenchError(Exception):
    """A user-facing error. The CLI prints ``error: <message>`` and exits non-zero."""


class ToolMissing(CipherbenchError):
    """An external tool is not installed; the message names the package that provides it."""


class ToolFailed(CipherbenchError):
    """An external tool ran and failed (non-zero exit, timeout or unparseable output)."""
