"""Teaching with the app in a room: the chapter walkthrough, its projection and presenter console,
and the rooms that keep a lecture's windows in step.

``walkthrough`` reads and checks walkthrough files (plain Python); ``walk`` draws /walkthrough,
running each step's own live page inside it, in one of three views (projection, console, plain);
``console`` draws the presenter console; ``deck`` is the state a lecture's windows share (small,
serialisable, checked on the way in); ``rooms`` keeps decks between sessions (an interface, and an
in-process store); ``sync`` publishes a window's deck and polls the room for the other's;
``state`` keeps the walkthrough's place and the window's room in the session. Lecture mode itself
(a flag every page reads) is in ``ui/state.py``.
"""
