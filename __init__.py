"""cardrules: card game rules as data.

A ruleset is a YAML file (checked by a JSON Schema) with expressions in a small
language of our own; one generic interpreter plays any ruleset.
"""

__version__ = "0.1.0"
