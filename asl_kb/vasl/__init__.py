"""VASL, read at run time: board archives and the map they make (archive.py
reads a board archive from the user's VASL boards folder, layout.py places
boards as VASL does and names their hexes board-prefixed, los.py traces LOS
over their pixels as VASL does), and saved games (.vsav: save.py decodes
one, pieces.py says what each of its pieces is). Nothing here holds data
from an archive: the art and terrain are MMP's, read from the user's own
folder.
"""
