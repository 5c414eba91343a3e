"""``python -m app.admin``: the operator's commands (``app.admin.cli``)."""

import sys

from app.admin.cli import main

sys.exit(main())
