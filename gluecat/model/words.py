"""English for messages built from words: `an athena view`, `a spark view`, `an LF-tag`.

A message that puts a word it was given after a fixed "a" reads "a athena view"; the article
follows the sound of the word it precedes, which for letters spelt out (LF, S3) is the letter's name.
"""

from __future__ import annotations

import re

# Letters whose names start with a vowel sound: "an LF-tag", "an S3 location", "an SQL text".
_VOWEL_NAMED = set("AEFHILMNORSX")
# Words that start with a vowel letter and a consonant sound, or the other way round.
_SAID_WITH_A = ("uni", "use", "usu", "uti", "eu", "one", "once", "ur")
_SAID_WITH_AN = ("hour", "honest", "honor", "honour", "heir")
_SPELT_OUT = re.compile(r"^[A-Z](?:[A-Z0-9]|\b|$)")


def article(word: str) -> str:
    """`a` or `an`, for the word that follows it."""
    if not word:
        return "a"
    if _SPELT_OUT.match(word):
        return "an" if word[0] in _VOWEL_NAMED else "a"
    if word[0].isdigit():
        return "an" if re.match(r"^(8|11|18)(\D|$|\d{2}(\d{3})*\b)", word) else "a"
    lowered = word.lower()
    if lowered.startswith(_SAID_WITH_AN):
        return "an"
    if lowered.startswith(_SAID_WITH_A):
        return "a"
    return "an" if lowered[0] in "aeiou" else "a"


def a(phrase: str) -> str:
    """`phrase` after its article: `an athena view`, `a hive table`, `an update`."""
    return f"{article(phrase)} {phrase}"
