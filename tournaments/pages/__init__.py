"""The event's pages, one module per audience and topic: public (events, rounds,
standings, the hall), players (their events, their match), organisers (events, the running
round), staff (results at a table, the judge console). Thin: they read, check roles and
call services.
"""
