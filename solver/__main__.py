"""``python -m solver``: the same as the ``solitaire`` command."""
from solver.cli import main

main()
