"""decks models arrive with their issue."""
