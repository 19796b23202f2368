"""gluecat: catalog-as-code for the AWS Glue Data Catalog."""

import os as _os
import signal as _signal
import sys as _sys

from gluecat.errors import ExitCode as _ExitCode

__version__ = "0.1.0"


def _interrupted_while_loading(_signum: int, _frame: object) -> None:
    """Ctrl-C or SIGTERM while the command still loads: nothing has been read or written yet."""
    _os.write(2, b"error: interrupted\n")
    _os._exit(_ExitCode.INTERRUPTED)


def _run_as_command() -> bool:
    """`gluecat ...` or `python -m gluecat ...`: not a library import, nor another module's run."""
    if _sys.argv[0] == "-m":  # what Python sets while it looks for the module `-m` names
        for index, option in enumerate(_sys.orig_argv):
            if option.startswith("-m"):
                return (option[2:] or "".join(_sys.orig_argv[index + 1 : index + 2])) == "gluecat"
    return _os.path.basename(_sys.argv[0]) == "gluecat"


# Run as a command, Ctrl-C or SIGTERM in its first fraction of a second, while Python imports it, is
# one line and exit 130, not a traceback through the import machinery nor a silent death by signal;
# this is the first thing gluecat runs. The command's own handling takes over once it runs
# (gluecat.cli.app.run). Imported as a library, the process keeps its own handlers.
if _run_as_command():
    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _interrupted_while_loading)
    if _signal.getsignal(_signal.SIGTERM) == _signal.SIG_DFL:
        _signal.signal(_signal.SIGTERM, _interrupted_while_loading)
    from gluecat.project import gcpause as _gcpause

    _gcpause.pause_while_loading()
