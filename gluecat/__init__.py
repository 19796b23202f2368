"""gluecat: catalog-as-code for the AWS Glue Data Catalog."""

import os as _os
import signal as _signal
import sys as _sys

__version__ = "0.1.0"


def _interrupted_while_loading(_signum: int, _frame: object) -> None:
    """Ctrl-C while the command still loads: nothing has been read or written yet."""
    _os.write(2, b"error: interrupted\n")
    _os._exit(130)


# Run as a command (`gluecat`, `python -m gluecat`), Ctrl-C in its first fraction of a second, while
# Python imports it, is one line and exit 130, not a traceback through the import machinery; the
# command's own handling takes over once it runs (gluecat.cli.app.run). Imported as a library, the
# process keeps its own handler.
if (
    _os.path.basename(_sys.argv[0]) in ("gluecat", "-m")
    and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
):
    _signal.signal(_signal.SIGINT, _interrupted_while_loading)
