"""sixtui: Connect6, Game of 6 and Six in the terminal, alone or over SSH."""

__version__ = "0.1.0"
