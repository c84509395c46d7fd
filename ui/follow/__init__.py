"""A following student's light page (``page``: ``GET /follow/<room>``), drawn from the room's event stream by its
own small script and stylesheet (``static/``). No Streamlit: it is served beside the app, in its process."""
