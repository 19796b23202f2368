"""Every lint rule id, declared once where its rule lives, with what it reports.

A rule's module declares its id (`RULE = declare("partition-count", "...")`); a finding can only
carry a declared id (`RuleId`), and what `lint: {allow: [...]}` accepts and the documentation's rule table
are read from here, so neither can drift from what gluecat emits.
"""

from __future__ import annotations

from typing import NewType

RuleId = NewType("RuleId", str)

_DECLARED: dict[str, str] = {}


def declare(rule_id: str, summary: str) -> RuleId:
    """Declare a rule id and what it reports (one line, for the documentation's table); returns the id."""
    known = _DECLARED.setdefault(rule_id, summary)
    if known != summary:
        raise ValueError(f"lint rule '{rule_id}' declared twice with different summaries")
    return RuleId(rule_id)


def declared() -> dict[str, str]:
    """The ids declared by the modules imported so far (`gluecat.lint.catalogue` imports them all)."""
    return dict(_DECLARED)
