"""A following student's light page, served without a Streamlit session: what the projection drew at a step
(``picture``: plain data a room carries), the server's view of it in a student's language (``render``), and the
page that draws each view the room's event stream sends (``page``: ``GET /follow/<room>``, with its script and
stylesheet in ``static/``)."""
