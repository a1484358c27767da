"""The Textual interface of sixtui: the same screens in a local terminal and over SSH."""
