"""`cardrules serve`: rooms in which friends play any ruleset in the browser.

The server (:mod:`.server`) is the referee: it runs the engine, keeps every room
(:mod:`.rooms`) and sends each connection only what its seat may see, built from
``state.observation(seat)`` by the family's web view (:mod:`.families`).  The page in
``static/`` is plain HTML, CSS and JavaScript; it renders what the server describes
and knows no family.
"""
