"""dataclysm rules."""
