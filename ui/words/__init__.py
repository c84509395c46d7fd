"""Words: every sentence the app shows comes from a content file, translated through a catalog.

``content`` reads ``pages/content/en/*.toml`` (the English source) and translates each string;
``i18n`` holds the four languages, reads the gettext catalogs in ``locales/`` and translates error
messages. Plain Python: no Streamlit.
"""
