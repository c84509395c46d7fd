from ui.page import start_page
from ui.walk import walkthrough

page = start_page("walkthrough")
walkthrough(page)
