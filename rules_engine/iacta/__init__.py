"""iacta rules."""
