"""Live updates: notices pushed to browsers and tools over WebSockets (live-updates.md)."""
