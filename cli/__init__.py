"""The ``cardrules`` command line."""
