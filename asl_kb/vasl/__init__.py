"""VASL, read at run time: board archives, the map they make, and saved games
(.vsav: save.py decodes one, pieces.py says what each of its pieces is)."""
