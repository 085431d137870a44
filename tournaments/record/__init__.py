"""An event's record as plain values: the games of a match, the history the pairing
modules read, players' names and numbers, final placings, and the standings (cached per
results version, which the result services move).

Reads only; the services that change the record live in event, rounds and results.
"""
