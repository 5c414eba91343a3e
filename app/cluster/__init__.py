"""What the nodes of a cluster share through Redis: rate limits and the lobby (optional: without
``BELOTE_REDIS_URL`` each node keeps its own, as a single server does)."""
