"""The rules of the game: pure functions over values, no I/O, no database, no mail."""
