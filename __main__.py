"""Run the command-line interface: ``python -m cardrules``."""

from cardrules.cli.main import main

main()
