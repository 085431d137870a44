"""Pure pairing: Swiss engine, matching solver, standings, top-cut bracket, simulator.

Plain data in and out, nothing of Django: the tournaments app wraps these modules
with persistence, permissions and HTTP, and the benchmarks run them on their own.
"""
