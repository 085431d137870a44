"""Match results: reporting, confirming, disputes and staff entries (each change
logged as a ResultChange), what a penalty does to a result, and what a player is told
when someone else changed theirs.
"""
