"""Run the command-line interface: ``python -m cardrules``."""

from cardrules.cli.entry import run

run()
