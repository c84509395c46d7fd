"""A following student's light page, served without a Streamlit session: what the projection drew at a step
(``picture``: plain data a room carries) and the server's view of it in a student's language (``render``)."""
