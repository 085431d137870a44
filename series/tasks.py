"""Celery finds an app's tasks in its ``tasks`` module."""

from series.printing import render_series_pdf

__all__ = ["render_series_pdf"]
