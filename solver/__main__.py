"""``python -m solver``: the same as the ``solitaire`` command."""
from solver.app.cli import main

main()
