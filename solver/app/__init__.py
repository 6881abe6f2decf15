"""The application, the top layer: the ``solitaire`` command and what it asks of the engine.

``analyze`` (what the commands ask of one position), ``record`` (the verdict record),
``batch`` (resumable classification), ``bench`` (strategies side by side) and ``cli`` (the
command line). They use a game only through the protocol and take game objects, never
names; only ``cli`` looks games up by name in the registry (``games``). Nothing in the
engine or the games imports this package.
"""
