"""The table service: runs a game at a table in a channel, one transaction per action.

`TableService` (facade.py) is the service's face; the parts it stands for are plain modules
over a shared `TableCore` (core.py); `TableSnapshot` (snapshot.py) is what it hands back.
"""

from bondbot.tables.service.facade import TableService
from bondbot.tables.service.snapshot import TableSnapshot

__all__ = ["TableService", "TableSnapshot"]
