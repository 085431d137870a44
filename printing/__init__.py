"""Printouts for organisers: match slips, pairings, standings, decklists, penalty report."""
