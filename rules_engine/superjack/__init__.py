"""superjack rules."""
