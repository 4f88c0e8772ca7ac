"""Paths shared by the tests."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent
