"""The app shell: what surrounds every page and is set up once per process or per server.

``frame`` runs a page as a fragment inside app.py, ``style`` loads the stylesheets, ``process``
and ``heap`` prepare a process once, ``serve`` starts the server (``make run``), and ``reconnect``
reruns a page at once for a browser that reconnected to another replica. Nothing below the shell
imports it.
"""
