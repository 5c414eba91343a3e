"""``GET /api/announcement``: the operator's word to everyone on the site, if there is one
(``app.db.announcements``). Anyone may read it; clients show it at the top of every page."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.services import ServicesDep

router = APIRouter(prefix="/api", tags=["site"])


class AnnouncementOut(BaseModel):
    text: str = Field(description="What the site's operator says, for everyone.")
    texts: dict[str, str] = Field(
        description="The same in other languages, by language code (`fr`, `bg`, …): a reader "
        "of one of those reads it there."
    )
    made_at: datetime = Field(
        description="When it was made: a client that hid it shows it again once a new one is made."
    )
    until: datetime | None = Field(
        description="When it ends; None: when the operator takes it down."
    )


class AnnouncementAnswer(BaseModel):
    announcement: AnnouncementOut | None


@router.get("/announcement", response_model=AnnouncementAnswer)
async def announcement(services: ServicesDep) -> AnnouncementAnswer:
    """The announcement in force, or null (each server reads it anew every few seconds)."""
    held = await services.announcements.current()
    if held is None:
        return AnnouncementAnswer(announcement=None)
    return AnnouncementAnswer(
        announcement=AnnouncementOut(
            text=held.text, texts=held.texts, made_at=held.made_at, until=held.until
        )
    )
