"""Where output goes: payload to stdout, chatter to stderr, one place for error lines."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape

from gluecat.secret_values import mask

stdout = Console(highlight=False, soft_wrap=True)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, sort_keys=False) + "\n")


def error(message: str) -> None:
    """One red `error:` line; the message is escaped, since it quotes what users wrote, and masked,
    since an AWS error may quote a value that came from a secret."""
    stderr.print(f"[bold red]error:[/] {escape(mask(message))}", markup=True)
