"""Quick phrases: chat lines chosen from a short list ("Good luck!", "Well played!") instead of
typed. Each reader sees a phrase in their own language (the client has its words, by the
phrase's name), so that players who share no language can still greet and thank each other,
and a phone player can answer with one tap.

A phrase is kept as a chat line whose text is ``MARK`` and the phrase's name. ``MARK`` is a
private-use character, which a typed line may not hold (``chat_writable``), so a stored line
is a phrase exactly when it starts with it; the chat's storage, its history and its restore
need nothing new. Clients read ``phrase`` (its name, or null) and ``text``, the English words,
for those that do not know the phrase.
"""

from __future__ import annotations

PHRASES: dict[str, str] = {
    "hello": "Hello!",
    "gl": "Good luck!",
    "nice": "Nice!",
    "wp": "Well played!",
    "thanks": "Thanks!",
    "sorry": "Sorry!",
    "oops": "Oops!",
    "gg": "Good game!",
    "bye": "Bye!",
}
"""Each phrase's name and its English words, in the order the client offers them."""

MARK = "\ue000"


def stored(phrase: str) -> str:
    """The chat text a phrase is kept as (the phrase is one of ``PHRASES``)."""
    return MARK + phrase


def phrase_of(text: str) -> str | None:
    """The phrase a stored chat text is, or None for a typed line."""
    if text.startswith(MARK) and text[len(MARK) :] in PHRASES:
        return text[len(MARK) :]
    return None


def shown(text: str) -> str:
    """What a stored chat text says, in English: a phrase's words, or the typed line."""
    phrase = phrase_of(text)
    return text if phrase is None else PHRASES[phrase]
