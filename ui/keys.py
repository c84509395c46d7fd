"""The registry of every key the app keeps in the session (widget keys included): :class:`Key`, one list so that no
two features collide, and the key of a folded section.

Apart from ui/state.py, which re-exports them (``from ui.state import Key`` reads as it always did): the registry is
names only and imports nothing, while the session's core reads and writes the session through them.
"""

from __future__ import annotations

__all__ = ["Key", "fold_key"]


class Key:
    """Every session-state key of the app (widget keys included), grouped by the module that owns it."""

    # ui/state.py: what every page shares
    LANG = "_lang"  # the language the app speaks (ui/words/i18n.py LANGUAGES)
    LECTURE = "lecture"  # lecture mode on or off (its sidebar toggle is LECTURE_TOGGLE)
    PAGE = "current_page"
    CONTROLS = "controls"  # page id -> control name -> value: what a shared link carries
    FLASH = "_flash"
    LINK_OPENED = "link-opened"  # the container of "the shared link was opened" (ui/page/header.py draw_flash)
    LAST_GOOD = "_last_good"
    WALK_CONTROLS = "_walk_controls"  # page id -> the walkthrough's own control values
    WALK_ROUNDS = "_walk_rounds"  # page id -> how often the server put other values in its walkthrough controls
    NAVIGATION = "_navigation"  # (language and titles, the st.Page objects): app.py's pages, built again on a change
    # ui/inputs/state.py: the shared input matrix
    MATRIX = "matrix"
    EDITOR_VERSION = "editor_version"
    EDITOR_BASE = "editor_base"
    MATRIX_EDITOR_PREFIX = "matrix_editor_"  # the data editor, remounted under a new number per new matrix
    UPLOAD_PREFIX = "upload_"  # the CSV uploader, likewise
    # ui/inputs/sidebar.py's widgets (read through value(), written through mirrored())
    LANG_SELECT = "lang_select"  # the sidebar's language selector
    PRESET = "preset"
    RAND_TOKENS = "rand_tokens"
    RAND_DIM = "rand_dim"
    RAND_SEED = "rand_seed"
    MATRIX_WIDTH = "matrix_width"
    LECTURE_TOGGLE = "lecture_toggle"
    LOAD_PRESET = "load_preset"
    RESET_MATRIX = "reset_matrix"
    DOWNLOAD_MATRIX = "download_matrix"
    # ui/steps/state.py: step-through
    STEP_MODE = "_step_mode"  # page id -> bool: step through instead of the whole page
    STEP = "_step"  # page id -> the name of the step on screen
    PENDING_STEP = "_pending_step"  # a shared link's ?step=, for the first page that steps through
    # ui/steps/stepper.py's widgets: step_back:<page> ... (the walkthrough's: step_back:walk on every page); CLICKER
    # is the container of the clicker's keys; CLICKER_KEYS the walkthrough's clicker (ui/steps/clicker.py)
    STEP_BACK_PREFIX = "step_back:"
    STEP_NEXT_PREFIX = "step_next:"
    STEP_PAGEUP_PREFIX = "step_pageup:"
    STEP_PAGEDOWN_PREFIX = "step_pagedown:"
    CLICKER = "clicker"
    CLICKER_KEYS = "clicker_keys"
    CLICKER_TOKEN = "_clicker_token"  # the session's token, which the browser's press counts carry
    # ui/lecture/state.py: the chapter walkthrough
    WALK_POSITION = "_walk_position"  # the walkthrough's step, the step whose controls were applied, the presses taken
    WALK_FILE = "_walk_file"  # an uploaded walkthrough's text
    WALK_OPENED = "_walk_opened"  # the walkthrough page has read its ?walk= once
    WALK_UPLOAD = "walk_upload"  # ui/lecture/walk.py: the uploader of a walkthrough of one's own
    PROJECTION_DETAILS = "_projection_details"  # the projection shows the explanation and the controls
    LECTURE_LOCK = "_lecture_lock"  # one run at a time reads and writes the lecture's state (ui/lecture/state.py)
    ROOM = "_room"  # this window in a lecture's room: a Slot holding one frozen record (ui/lecture/records.py)
    PROJECTION_JOIN = "_projection_join"  # the projection shows the class's join link and QR code (J)
    # ui/lecture/: widgets of the projection's bar and of the presenter console
    DETAILS_BUTTON = "projection_details"
    PROJECTION_BAR = "projection-bar"  # the projection's one slim line (a container)
    WALK_AT_PREFIX = "walk-at-"  # walk-at-<k>: "Step k of n" on a lecturer's window (the step it shows)
    STAGE = "projection-stage"  # the step on the projection: what follows it is hidden (ui/shell/projection.css)
    STAGE_DETAILS = "stage-with-details"  # the same, with the details shown
    # The console's list of steps (a radio), one widget per step on screen: console_steps:<index>. A rerun the
    # browser sent before it drew the new step carries the old list's choice; under the old key that choice
    # is no change, where one key for every step would take it as the lecturer's and put the step back.
    CONSOLE_STEPS_PREFIX = "console_steps:"
    CONSOLE_LIST = "console-list"
    CONSOLE_NOTE = "console-note"  # the speaker note, large
    CONSOLE_DRIFT = "console-drift"  # "the live values differ from the walkthrough's", and its reset
    CONSOLE_DRIFT_RESET = "console_drift_reset"
    CONSOLE_BUDGET = "console_budget"
    CONSOLE_CLOCK = "console_clock"
    CONSOLE_SHARE_NOTES = "console_share_notes"  # the console's "Share notes with the class"
    JOIN_BUTTON = "projection_join"  # the projection's J: the join panel
    JOIN_PANEL = "join-panel"
    CLASS_COUNT = "class-count"  # the projection's live count of the class, alone in its box (a timed fragment)
    # ui/lecture/classroom.py: a student's line (exploring on their own) and its link back to the lecture
    CLASS_BAR = "class-bar"
    CLASS_REJOIN = "class-rejoin"  # the class of "Rejoin the lecture", a link to the light page
    CLASS_POLL = "class-poll"  # the class's question on that line, heard from the room's stream (class_poll.js)
    # ui/lecture/poll.py: a class poll's widgets and boxes
    POLL_QUESTION = "poll_question"  # the console's choice of question
    POLL_ASK = "poll_ask"
    POLL_REVEAL = "poll_reveal"
    POLL_CLOSE = "poll_close"
    POLL_DELETE = "poll_delete"
    POLL_CONSOLE = "poll-console"  # the console's poll box
    POLL_STAGE = "poll-stage"  # the projection's poll, in place of the step
    # ui/lecture/spotlight.py: a student's exploration sent, listed on the console, put on the projector
    SPOTLIGHT_NOTE = "spotlight_note"  # a student's one-line note, in the send form
    SPOTLIGHT_STEP = "spotlight_step"  # the step to show, in the send form (None: the one on screen)
    SPOTLIGHT_FORM = "spotlight_form"
    SPOTLIGHT_SEND = "spotlight_send"
    SPOTLIGHT_SAID = "_spotlight_said"  # a student: (kind, message) said about their last send
    SPOTLIGHT_BANNER = "spotlight-banner"  # above the projected exploration: whose it is
    SPOTLIGHT_CONSOLE = "spotlight-console"  # the console's box: what is on the projector, what the class sent
    SPOTLIGHT_BACK = "spotlight_back"  # the console's "Back to the lecture"
    SPOTLIGHT_BACK_KEY = "spotlight_back_key"  # the projection's (B)
    SPOTLIGHT_PROJECT_PREFIX = "spotlight_project:"  # the console's Project, per exploration: spotlight_project:<n>
    LISTEN = "listen"  # hidden: the newest room version a lecturer's window heard (ui/lecture/listen.js)
    WINDOW_TOKEN = "_window_token"  # the window's token: its publishes carry it (Deck.by)
    LISTENING = "listening"  # the box of a lecturer's window's room listener (ui/lecture/window.py), hidden
    SEAT = "seat"  # the box of the script that keeps a lecturer's secret in its browser (ui/lecture/seat.py), hidden
    CONSOLE_TOKEN = "_console_token"  # the projection: the one-time token that opens its console (P)
    # ui/sharing/state.py: the shareable link
    LINK_LOADED = "_link_loaded"
    NOTEBOOK_SPEC = "_notebook_spec"  # the state the page's "Open as a notebook" offers (a NotebookSpec)
    # ui/announce/state.py: what a screen reader hears of a change
    SAY_NOW = "_say_now"  # this run's sentences, by kind
    SAID = "_said"  # each page's last sentences, by kind
    SAY_COUNT = "_say_count"  # announcements made: the browser speaks when it moves
    SAY_TEXT = "_say_text"  # the last announcement
    SAY_NOTICES = "_say_notices"  # notices drawn above the page, to be said with this run's changes
    SAY_ONCE = "_say_once"  # the notices drawn on every run that were said already (a shared link's, by when)
    PAGE_NOTICE = "page-notice"  # the box of a page's queued message (ui/page/header.py draw_flash)
    LINK_OPENED_AT = "_link_opened_at"  # when a shared link was opened, while that is said (ui/sharing/link.py)
    SHARE_NOTE = "_share_note"
    # ui/check/state.py: page id -> question id -> the learner's answer and progress.
    # Never part of controls(), so a shared link carries no answers.
    CHECKS = "_checks"
    PROGRESS = "_progress"  # ui/check/progress.py: the browser's kept progress (a component's state)
    PROGRESS_TOKEN = "_progress_token"
    PROGRESS_TAKEN = "_progress_taken"
    CHECK_WIDGET_PREFIX = "check:"  # answer widgets: check:<page>:<question>[:<part>]
    LIVE = "_live"  # (page id, Live): what this run's page computed, for a class poll judged on it
    # Prefixes of widget keys made per page or per thing (each owner builds its keys from its prefix).
    FOLD_PREFIX = "fold:"  # ui/draw/layout.py folded(): fold:<what>, open or closed
    RESULTS_PREFIX = "results-"  # ui/draw/layout.py side_by_side(): columns of results that may stack
    CONTROL_PREFIX = "w:"  # control(): w:<page>:<name>
    WALK_CONTROL_PREFIX = "walk:"  # control() while a walkthrough drives the page: walk:<page>:<name>[#<round>]
    STEP_MODE_PREFIX = "step_mode:"  # the step-through toggle of a page: step_mode:<page>
    DOWNLOAD_PREFIX = "download:"  # ui/page/controller.py: a page's CSV download, download:<page>:<n>
    # page scripts' own widgets
    TIME_VARIANTS = "time_variants"  # pages/92_efficient.py


def fold_key(what: str) -> str:
    """The widget key of a folded section (an expander that draws its contents only while open)."""
    return f"{Key.FOLD_PREFIX}{what}"

