"""Developer tools run from a checkout (``python -m tools.<name>``); never imported at runtime."""
