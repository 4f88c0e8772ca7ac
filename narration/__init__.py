"""A game in words, below the terminal (cli/) and the web (web/), which both use it: the
narration of the events a seat may see, the score sheet, card names for people, and each
family's text view (``narration/families``).  It reads the engine's views of events and
observations only, never the record."""
