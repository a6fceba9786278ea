"""``python -m playtest.server FOLDER [Voilà options]``: the standalone dashboard server."""
import sys

from . import main

sys.exit(main())
