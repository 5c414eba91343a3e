"""Rooms: the actors that run tables. See ``room.py`` for the actor, ``ports.py`` for what a
room needs from storage and transport, ``manager.py`` for the registry."""
