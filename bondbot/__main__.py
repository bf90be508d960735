"""`python -m bondbot` is the `bondbot` command."""

import sys

from bondbot.cli import main

sys.exit(main())
