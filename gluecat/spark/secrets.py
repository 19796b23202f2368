"""Secret values in spark-conf output: masked unless the user asks for them, and counted for a warning."""

from __future__ import annotations

import dataclasses

from gluecat.secrets import redact
from gluecat.spark.settings import SANDBOX_PLACEHOLDER, SparkSettings


class SecretMasker:
    """Masks what `redact` recognises, and remembers which keys it masked."""

    def __init__(self) -> None:
        self.masked: list[str] = []

    def __call__(self, key: str, value: str) -> str:
        shown = str(redact.mask_value(key, value))
        if shown != value and key not in self.masked:
            self.masked.append(key)
        return shown

    def settings(self, settings: SparkSettings) -> SparkSettings:
        conf = {
            key: value if value == SANDBOX_PLACEHOLDER or key in settings.public else self(key, value)
            for key, value in settings.conf.items()
        }
        return dataclasses.replace(settings, conf=conf)

    def warning(self) -> str | None:
        if not self.masked:
            return None
        keys = ", ".join(self.masked[:5]) + (", …" if len(self.masked) > 5 else "")
        return (
            f"# masked {len(self.masked)} secret value(s) as {redact.MASK} ({keys}): pass --show-secrets to print them"
        )
