"""A table's clock: time extensions on top of the round's time, and telling the judges
of tables whose time is up.
"""
