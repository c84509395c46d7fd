"""Check yourself: each section's questions, with answers computed from the page's live result.

``questions`` gathers them (``self_attention`` and ``causal_and_heads`` define them by section, over the types of
``question_types``), ``judging`` judges an answer (known mistakes included), ``answers`` parses what
a learner typed (plain Python, never raises), ``panel`` draws the panel and the ✓ in the navigation,
and ``state`` keeps the learner's answers in the session (never in a link).
"""
