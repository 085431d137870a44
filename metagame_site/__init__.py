"""The metagame on the site (issue 36): the pure ``metagame`` package behind pages, API,
CSV, print and the organiser's archetype names, with the decklist policy's privacy."""
