"""The page of `bondbot try`: the local Discord stand-in drawn in a browser.

:class:`~bondbot.local.web.app.LocalWeb` serves a dependency-free page (``static/``), pushes
each user's view of the stand-in over server-sent events, and turns the page's clicks,
commands and forms into the same interactions the tests send.
"""

from .app import LocalWeb, WebUser

__all__ = ["LocalWeb", "WebUser"]
