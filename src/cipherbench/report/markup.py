"""HTML text helpers the page and the explorer share: escaping, JSON inside a script block, the
hash a Content-Security-Policy allows an inline script by."""

from __future__ import annotations

import base64
import hashlib
import html
import json
from typing import Any


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def json_for_script(data: Any) -> str:
    """JSON safe inside <script type="application/json">: no ``<``, ``>`` or ``&`` (so never
    ``</script`` or ``<!--``) and no U+2028/2029; JSON.parse reads the escapes back."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                       ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, code)
    return text


def script_hash(script: str) -> str:
    """The CSP source that allows exactly this inline script."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
