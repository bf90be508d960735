"""The fake's REST API by route family, each a mixin of
:class:`~bondbot.local.server.FakeDiscord`: ``identity``, ``commands``, ``messages``,
``files``, ``interactions`` (callbacks and webhooks), ``channels`` (and threads),
``guilds``; ``call`` holds the parsed, recorded request they all take.
"""
