"""The shared input: the embedding matrix every page reads.

``matrix`` is its type, presets and validation (plain Python, unit-tested), ``sidebar`` draws the
panel that edits it (data editor, presets, width, CSV, language, lecture mode), and ``state``
keeps it in the session.
"""
