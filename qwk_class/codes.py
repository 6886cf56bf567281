"""What strangers type or carry in links: class codes, the teacher's key, students' tokens and
nicknames. Each is read back into a checked form, or refused; nothing here trusts its input.

- A **class code** is :data:`CODE_LENGTH` characters from :data:`ALPHABET` (31 letters and
  digits, none that reads as another: no 0/O, 1/I/L), about 49.5 bits: with joins rate-limited
  (:mod:`.classroom`), guessing one of a thousand live classes takes millions of years. It is
  shown in two groups (``K7QXM-2HPRA``) to be read out in a room; typed, case, spaces and dashes
  do not matter.
- The **teacher's key** and each **student's token** are 192 and 144 random bits (URL-safe
  Base64). The database keeps only their SHA-256, so a copy of it opens no class.
- A **nickname** is what a student wants to be called: Unicode normalized (NFKC), control, format
  (bidirectional overrides, zero-width joiners) and private-use characters removed, spaces
  collapsed, at most :data:`MAX_NICKNAME` characters. It is shown as text, never as markup.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
MAX_NICKNAME = 24
#: Longer texts are refused before any work is done on them (a pasted novel, a forged message).
MAX_TYPED = 400
_KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: Unicode categories a nickname keeps nothing of: controls, format characters, surrogates,
#: private use, unassigned.
_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}


def new_code() -> str:
    """A fresh class code (:data:`CODE_LENGTH` characters of :data:`ALPHABET`)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: object) -> str | None:
    """A class code from what someone typed or a link carried, or ``None`` if it cannot be one.

    >>> read_code(" k7qxm-2hpra "), read_code("K7QXM2HPRA"), read_code("K7QXM-2HPR0")
    ('K7QXM2HPRA', 'K7QXM2HPRA', None)
    """
    if not isinstance(text, str) or len(text) > MAX_TYPED:
        return None
    # Only ASCII letters are uppercased: "i".upper() is not "İ" in Turkish, and a code is ASCII.
    cleaned = "".join(ch.upper() if "a" <= ch <= "z" else ch for ch in text
                      if ch not in " -\t\u00a0")
    if len(cleaned) != CODE_LENGTH or any(ch not in ALPHABET for ch in cleaned):
        return None
    return cleaned


def show_code(code: str) -> str:
    """A code as it is read out in a room: two groups of five.

    >>> show_code("K7QXM2HPRA")
    'K7QXM-2HPRA'
    """
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def new_key() -> str:
    """A teacher's key: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_token() -> str:
    """A student's token: 144 random bits, URL-safe."""
    return secrets.token_urlsafe(18)


def read_key(text: object) -> str | None:
    """A key or token from a link, or ``None`` if it cannot be one (before it is hashed)."""
    if isinstance(text, str) and _KEY_PATTERN.match(text):
        return text
    return None


def digest(secret: str) -> str:
    """What the database keeps of a key or token."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def same_digest(secret: str, kept: str) -> bool:
    """Whether ``secret`` is the key whose digest is ``kept`` (in constant time)."""
    return hmac.compare_digest(digest(secret), kept)


def clean_nickname(text: object) -> str | None:
    """A nickname as kept and shown, or ``None`` when nothing printable is left.

    Longer ones are cut to :data:`MAX_NICKNAME` characters (never inside a combining sequence).

    >>> clean_nickname("  Ana\\u202e  María\\u0000 "), clean_nickname("\\u200b\\n")
    ('Ana María', None)
    """
    if not isinstance(text, str):
        return None
    text = unicodedata.normalize("NFKC", text[:MAX_TYPED])
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in _DROPPED)
    kept = " ".join(kept.split())
    if len(kept) > MAX_NICKNAME:
        kept = kept[:MAX_NICKNAME]
        while kept and unicodedata.combining(kept[-1]):
            kept = kept[:-1]
        kept = kept.rstrip()
    # A nickname of combining marks alone would decorate whatever is shown next to it.
    if not kept or all(unicodedata.combining(ch) or unicodedata.category(ch).startswith("M")
                       for ch in kept):
        return None
    return kept
