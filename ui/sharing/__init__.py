"""What leaves the app: the whole view in a link (``?s=…``), and a page's results as CSV.

``codec`` encodes and validates the state as hostile input (plain Python), ``link`` reads a link
once per session and keeps the address bar current, ``export`` writes tidy CSV, and ``state``
keeps the link's bookkeeping in the session.
"""
