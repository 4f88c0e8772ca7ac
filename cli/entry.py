"""The `cardrules` command's entry point: it imports the CLI itself, so that Ctrl-C
while the program starts (importing takes a moment) ends it quietly with exit 130,
as it does once a command runs, instead of a traceback."""

from __future__ import annotations

import sys


def run() -> None:
    try:
        from .main import main
    except KeyboardInterrupt:
        sys.stderr.write("cardrules: interrupted\n")
        sys.exit(130)
    main(prog_name="cardrules")
