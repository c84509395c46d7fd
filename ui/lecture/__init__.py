"""Teaching with the app in a room: the chapter walkthrough, its projection and presenter console, the class
on its own devices (following on the light page, ui/follow; exploring in the app), and the rooms that keep a
lecture's windows in step.

The state machine (no Streamlit; tested as a table, tests/test_protocol.py):
- ``records``: a window (``Lecturer``, ``Student``), the events it meets and the actions it takes, all frozen;
- ``protocol``: ``transition(window, event) -> (window, actions)``, the one place a window changes;
- ``deck``: the state a lecture's windows share (small, serialisable, checked on the way in), and a class
  ``Poll`` (the question put to the class); ``picture``: the step the projection drew, as numbers the deck carries
  to the class's light pages (ui/follow); ``right``: a revealed poll's right answer, for those pages' verdicts;
- ``walkthrough``: reads and checks walkthrough files; ``address``: how an address names a room (its parameters,
  the light page's path, its student cookie);
- ``explorations``: a student's exploration as sent, and the one on the projector (a ``Spotlight``), checked like
  a link;
- ``documents``: what every room document is decoded by: a msgspec struct per document, with its caps beside its
  fields, and the field that failed when one does not fit.

Its Streamlit side:
- ``lecture``: what app.py's frame asks, twice a run: ``before_page`` (enter a room, see it, draw a lecturer's
  seat or a student's line) and ``after_page`` (publish what the page changed);
- ``window``: the window's one record in the session, what a run sees of the room, the actions carried out,
  and a lecturer's listener (``listen.js``: its room's moves, heard in the browser, and its activity, asked from
  ui/shell/activity.py): no timed fragment runs in a lecturer's window;
- ``store``: the process's rooms, and one look at a room (each new deck read from the store once per process);
- ``rooms``: where decks are kept between sessions, the contract and its caps; ``memory_rooms``: in this
  process; ``sqlite_rooms`` (the default): in this process and written through to a file, which a restart reads
  again (``sqlite_rows``: a room as the file's row, and a row checked as it is read back); ``redis_rooms``: in
  Redis, shared by several replicas (``redis_inbox``: the explorations students send and the lesson record, there;
  ``redis_moves``: each publish announced on a pub/sub channel, heard by every replica);
- ``feed``: a room's moves pushed to light subscribers in one process (no Streamlit): the current state first, then
  only the newest, encoded once per version and language, and a connected student said present
  (``subscription``: one subscriber's slot); the event stream that serves it is ui/shell/push.py;
- ``seat``: the lecturer's seat kept in the lecturer's browser (a cookie), so that a reloaded projection or
  console goes on driving;
- ``state``: the walkthrough's place, a lecturer's own walkthrough file, the projection's folds.

Its views:
- ``walk``: /walkthrough, running each step's live page inside it, in one of three views (projection,
  console, plain); ``console``: the presenter console (note and its sharing, next step, clock, steps, console
  opener);
- ``classroom``: an exploring student's line (and its link back to the light page), the join link and QR code (J);
- ``poll``: a class poll on the console (ask, count, reveal, close) and the projection (the class answers on the
  light page, ui/follow); ``poll_answers``: the answers' spread, right answer and known mistakes, as revealed;
- ``spotlight``: a student sends their exploration, the console lists what the class sent, Project and Back;
  ``lesson``: the lesson's record (each revealed poll's counts, each exploration projected) as a CSV;
- ``files``: the lecture's downloads (the walkthrough as a notebook, the lesson's record), links to the app's own
  routes (ui/shell/downloads.py) and the files those routes answer with.
Lecture mode itself (a flag every page reads) is in ``ui/state.py``.
"""
