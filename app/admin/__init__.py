"""What an operator does by hand: ``python -m app.admin`` (``app.admin.cli`` lists the
commands)."""

from app.admin.actions import appeals, reports
from app.admin.cli import main, system_user

__all__ = ["appeals", "main", "reports", "system_user"]
