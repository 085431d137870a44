"""judging models arrive with their issue."""
