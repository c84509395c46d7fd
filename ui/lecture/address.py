"""The addresses a room is reached by: the app's own parameters, the light page's path and its student cookie.

Plain constants, no Streamlit: the light page (ui/follow), the server's redirect of the class's old link
(ui/shell/join.py) and the app's windows (ui/lecture/classroom.py, lecture.py) name a room the same way.
"""

from __future__ import annotations

__all__ = ["ACTIVITY_ROUTE", "AWAY_PARAM", "EVENTS_ROUTE", "FOLLOW_ROUTE", "NEW_ROOM", "ROOM_PARAM", "STUDENT_COOKIE",
           "activity_path", "events_path", "follow_path", "student_cookie"]

ROOM_PARAM = "room"  # ?room=<id>: a student of the room (on the light page, unless away=1); ?room=new: open one
AWAY_PARAM = "away"  # ?away=1 beside ?room=: a student who explores in the app (the light page's Explore)
NEW_ROOM = "new"
FOLLOW_ROUTE = "/follow/{room}"  # the room's light page, from the app's root
EVENTS_ROUTE = "/room/{room}/events"  # the room's event stream (ui/shell/push.py), from the app's root
ACTIVITY_ROUTE = "/room/{room}/activity"  # the room's activity, for its lecturer's windows (ui/shell/activity.py)
STUDENT_COOKIE = "attention_student_"  # + the room's id: the light page's student id (ui/follow/student.py)


def follow_path(room: str) -> str:
    return FOLLOW_ROUTE.replace("{room}", room)


def events_path(room: str) -> str:
    return EVENTS_ROUTE.replace("{room}", room)


def activity_path(room: str) -> str:
    return ACTIVITY_ROUTE.replace("{room}", room)


def student_cookie(room: str) -> str:
    return STUDENT_COOKIE + room
