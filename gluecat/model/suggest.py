"""Did-you-mean for a word from a closed set: every candidate as close as the closest one.

`us-est-1` is one letter from `us-east-1` and from `us-west-1`; naming only one of them would
send half of the users who meant the other the wrong way.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6  # difflib's default: below it a "suggestion" is noise


def closest(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> list[str]:
    """The candidates closest to `word` (all of those tied for the best score), in the given order."""
    scored: list[tuple[float, str]] = []
    for candidate in dict.fromkeys(candidates):
        matcher = difflib.SequenceMatcher(None, word, candidate)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            ratio = matcher.ratio()
            if ratio >= cutoff:
                scored.append((ratio, candidate))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [candidate for score, candidate in scored if score == best]


def either(names: list[str], quote: str = "'") -> str:
    """`'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`."""
    quoted = [f"{quote}{name}{quote}" for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def did_you_mean(word: str, candidates: Iterable[str], cutoff: float = CUTOFF) -> str:
    """`did you mean 'parquet'?`, `did you mean 'us-east-1' or 'us-west-1'?`, or '' when none is close."""
    close = closest(word, candidates, cutoff)
    return f"did you mean {either(close)}?" if close else ""


class Misspelt(ValueError):
    """A value outside its closed set that is close to members of it. `meant` is the closest one:
    validate reads the file as if it said that, so the file's other findings show in the same run."""

    def __init__(self, message: str, meant: str) -> None:
        super().__init__(message)
        self.meant = meant


def check_member(value: str, members: Iterable[str], what: str, use: str | None = None) -> str:
    """`value` when it is one of `members`; else a Misspelt (or ValueError) naming the closest ones."""
    known = list(members)
    if value in known:
        return value
    close = closest(value, known)
    listed = use or f"use one of {', '.join(known)}"
    message = f"unknown {what} '{value}': " + (f"did you mean {either(close)}? " if close else "") + listed
    if close:
        raise Misspelt(message, close[0])
    raise ValueError(message)
