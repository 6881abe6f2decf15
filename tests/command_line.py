"""The command line for tests to invoke, its click command built once per app.

typer builds an app's click command from every subcommand's signature on each
``typer.testing.CliRunner.invoke`` (about 7 ms for this command line), and the tests invoke
it hundreds of times. A command built once is reused as click intends: each invocation
gets its own context.
"""
from __future__ import annotations

from typing import Any

import click
import typer
from click.testing import CliRunner, Result


class Runner(CliRunner):
    """click's test runner, taking a typer app as typer's own runner does."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._built: dict[int, tuple[typer.Typer, click.Command]] = {}

    def invoke(self, app: Any, args: Any = None, **options: Any) -> Result:  # type: ignore[override]
        if id(app) not in self._built:
            # the app kept beside its command, so that its id stays its own
            self._built[id(app)] = (app, typer.main.get_command(app))
        return super().invoke(self._built[id(app)][1], args, **options)


runner = Runner()
