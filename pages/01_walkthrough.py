from ui.lecture.walk import walkthrough
from ui.page import start_page

page = start_page("walkthrough")
walkthrough(page)
