"""Step-through: a page's computation one named step at a time (the default in lecture mode).

``stepper`` turns a page's ``[steps.*]`` content into slides over its live trace and draws the
Back/Next row with the clicker's keys; ``state`` keeps which step is on screen.
"""
