"""Teaching with the app in a room: the chapter walkthrough, and (next) the projection, the
presenter console and the class's rooms.

``walkthrough`` reads and checks walkthrough files (plain Python); ``walk`` draws /walkthrough,
running each step's own live page inside it; ``state`` keeps the walkthrough's place in the session.
Lecture mode itself (a flag every page reads) is in ``ui/state.py``.
"""
