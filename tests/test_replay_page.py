"""The replay page (``solitaire solve --html``) and the drawings it shows.

Without a browser: every game's ``drawing`` holds the cards its text shows, the page is
one file that names nothing outside it, and an unwritable path is one clear line. In a
browser (Debian's ``chromium``, headless; skipped where it is missing): the page opened at
step N shows, pile by pile, the cards the rules give after N steps, for every game, the
keyboard steps it, and its screenshot is not blank.
"""
from __future__ import annotations

import collections
import json
import os
import random
import re
import shutil
import struct
import subprocess
import time
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from conftest import quick_first
from games import GAMES
from solver.app import analyze, replay_page
from solver.app.cli import main
from solver.game import SolitaireError
from solver.layout import FANS, layout_cards, text_layout
from solver.search import Budget

CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="the browser test needs Debian's chromium package "
                             "(apt-get install chromium); it is not installed here")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1100,800"]
REPEATS = {"bridge-solitaire"}     # its text names kept cards twice (face up, kept, hand)
LINE = 40            # search moves of the random line each game's page replays


def random_line(game: Any, seed: int = 1, moves: int = LINE) -> tuple[Any, list[Any]]:
    """Return a deal and a line of play from it: the first steps of a solution found
    within a small budget (deals 1 to 3), else a seeded random line from deal 1."""
    for number in (1, 2, 3):
        start = game.deal(number)
        found = analyze.solve(game, start, budget=Budget(max_states=20_000)).moves
        if len(found) >= 10:
            return start, list(found[:3 * moves])
    start = state = game.deal(1)
    rng, steps = random.Random(seed), []
    for _ in range(moves):
        options = list(game.moves(state))
        if not options:
            break
        move = rng.choice(options)
        steps += game.expand(state, move)
        state = game.play(state, move)
    return start, steps


def positions(game: Any, start: Any, steps: list[Any]) -> list[Any]:
    states = [start]
    for step in steps:
        states.append(game.play(states[-1], step))
    return states


# -- the drawings, without a browser ----------------------------------------------------

CARD_OR_TILE = re.compile(r"<?(?:(?:10|[A2-9TJQK])[CDHS]|JK)>?|\d+-\d+")


def text_tokens(text: str) -> collections.Counter[str]:
    """The cards and tiles a position's text names outside its foundation lines
    (``C-5`` names a foundation by its top rank, not its cards), face-down marks removed."""
    found: collections.Counter[str] = collections.Counter()
    for line in text.splitlines():
        label = line.partition(":")[0].strip().lower()
        if label in ("foundations", "aces", "kings"):
            continue
        found.update(t.strip("<>") for t in CARD_OR_TILE.findall(line.split("#")[0]))
    return found


@pytest.mark.parametrize("name", quick_first(sorted(GAMES), set(GAMES) - {"crescent", "spider"}))
def test_every_drawing_holds_the_cards_its_text_shows(name):
    game = GAMES[name]
    start, steps = random_line(game)
    for state in positions(game, start, steps):
        drawing = game.drawing(state)
        assert set(drawing) == {"rows", "notes"}
        piles = [p for row in drawing["rows"] for p in row]
        assert len({p["name"] for p in piles}) == len(piles)             # names are unique
        assert all(p["fan"] in FANS for p in piles)
        shown, named = collections.Counter(layout_cards(drawing)), text_tokens(game.format(state))
        assert set(named) <= set(shown), game.format(state)
        if name not in REPEATS:
            assert not named - shown, game.format(state)                # as often as named
    assert len(steps) >= 10                                             # the line went somewhere


def test_face_down_cards_are_drawn_face_down():
    klondike = GAMES["klondike"]
    columns = klondike.drawing(klondike.deal(1))["rows"][1]
    assert [sum(c.startswith("<") for c in p["cards"]) for p in columns] == list(range(7))
    stock = klondike.drawing(klondike.deal(1))["rows"][0][0]
    assert stock["name"] == "stock" and len(stock["cards"]) == 24
    assert all(c.startswith("<") for c in stock["cards"])


def test_the_default_drawing_reads_the_text():
    drawing = text_layout("Foundations: C-2 D-0\nFreecells: 7H -\n: 5C <KD>\nRedeals: 1\n")
    assert drawing["notes"] == ["Redeals: 1"]
    assert [[(p["name"], p["cards"]) for p in row] for row in drawing["rows"]] == [
        [("foundations C", ["AC", "2C"]), ("foundations D", [])],
        [("freecells", ["7H"])], [("line 3", ["5C", "<KD>"])]]


def test_the_page_is_one_file_that_names_nothing_outside_it(tmp_path):
    game = GAMES["freecell"]
    start, steps = random_line(game)
    page = tmp_path / "page.html"
    replay_page.write_page(game, start, steps, page, critical=[0, 3, 999])
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)\s*=|url\(|@import|https?://""", text)
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                                text, re.S).group(1))
    assert data["critical"] == [0, 3]                                   # out of range left out
    assert len(data["frames"]) == len(steps) + 1 == len(data["steps"]) + 1
    assert data["frames"][-1] == game.drawing(positions(game, start, steps)[-1])


def test_an_unwritable_page_is_one_line_and_status_2(tmp_path, capsys):
    with pytest.raises(SolitaireError, match="no such directory"):
        replay_page.check_writable(tmp_path / "missing" / "page.html")
    with pytest.raises(SystemExit) as stop:
        main(["solve", "black-hole", "--deal", "1", "--html", str(tmp_path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "it is a directory" in err
    assert list(tmp_path.iterdir()) == []


def test_solve_writes_the_page_of_its_solution(tmp_path, capsys):
    page = tmp_path / "bh.html"
    with pytest.raises(SystemExit) as stop:
        main(["solve", "black-hole", "--deal", "2", "--html", str(page)])
    assert stop.value.code == 0
    out = capsys.readouterr().out.splitlines()
    data = _page_data(page)
    assert [s["notation"] for s in data["steps"]] == out[1].split()
    assert len(data["frames"]) == 52 and data["critical"] == []
    assert data["won"] and data["title"] == "black-hole 2: won"
    with pytest.raises(SystemExit) as stop:                             # lost: the deal alone
        main(["solve", "black-hole", "--deal", "1", "--html", str(page)])
    assert stop.value.code == 1
    data = _page_data(page)
    assert data["steps"] == [] and data["title"] == "black-hole 1: lost"
    assert data["frames"] == [GAMES["black-hole"].drawing(GAMES["black-hole"].deal(1))]


def test_analyze_writes_the_card_solution_with_its_critical_steps(tmp_path, capsys):
    page = tmp_path / "card.html"
    with pytest.raises(SystemExit) as stop:
        main(["analyze", "black-hole", "--deal", "2", "--json", "--html", str(page)])
    assert stop.value.code == 0
    card = json.loads(capsys.readouterr().out)
    data = _page_data(page)
    assert [s["notation"] for s in data["steps"]] == card["solution"]
    assert data["critical"] == card["critical"] and data["critical"]
    with pytest.raises(SystemExit) as stop:
        main(["analyze", "black-hole", "--deal", "2", "--graph", str(tmp_path / "g.graphml"),
              "--html", str(page)])
    assert stop.value.code == 2 and "--html" in capsys.readouterr().err


def _page_data(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    found = re.search(r'id="replay-data">(.*?)</script>', text, re.S)
    assert found is not None
    return json.loads(found.group(1).replace("<\\/", "</"))  # type: ignore[no-any-return]


# -- in a browser ------------------------------------------------------------------------

class Board(HTMLParser):
    """Reads the drawn board back from the page's DOM: rows of (pile name, cards)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, list[str]]]] = []
        self.step: int | None = None
        self.inside = False
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id") == "board":
            self.inside, self.step = True, int(found.get("data-step") or -1)
            self.depth = 0
        if not self.inside or tag != "div":
            return
        self.depth += 1
        kind = found.get("class") or ""
        if kind == "row":
            self.rows.append([])
        elif "data-pile" in found:
            self.rows[-1].append((found["data-pile"] or "", []))
        elif "data-card" in found:
            self.rows[-1][-1][1].append(found["data-card"] or "")

    def handle_endtag(self, tag: str) -> None:
        if self.inside and tag == "div":
            self.depth -= 1
            if self.depth < 0:
                self.inside = False


def browse(page: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    profile.mkdir()
    assert CHROMIUM is not None
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=True)


def drawn(drawing: dict[str, Any]) -> list[list[tuple[str, list[str]]]]:
    return [[(p["name"], p["cards"]) for p in row] for row in drawing["rows"]]


@needs_chromium
@pytest.mark.parametrize("name", quick_first(sorted(GAMES), {"freecell", "klondike", "gaps"}))
def test_the_page_shows_the_position_after_n_steps(name, tmp_path):
    game = GAMES[name]
    start, steps = random_line(game, seed=len(name))
    page = tmp_path / f"{name}.html"
    replay_page.write_page(game, start, steps, page)
    n = len(steps) * 2 // 3
    board = Board()
    board.feed(browse(page, tmp_path, "--dump-dom", f"{page.as_uri()}#step={n}").stdout)
    assert board.step == n
    after = positions(game, start, steps)[n]
    assert board.rows == drawn(game.drawing(after))
    assert board.rows != drawn(game.drawing(start))                     # it moved


@needs_chromium
def test_the_keyboard_steps_the_page(tmp_path):
    """Arrow keys, Home and End, sent to the page by Chromium's DevTools protocol."""
    game = GAMES["freecell"]
    start, steps = random_line(game)
    page = tmp_path / "keys.html"
    replay_page.write_page(game, start, steps, page)
    states = positions(game, start, steps)
    with DevTools(tmp_path, page) as tools:
        seen = [tools.step()]
        for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft", "End", "Home"):
            tools.key(key)
            seen.append(tools.step())
        assert seen == [0, 1, 2, 3, 2, len(steps), 0]
        tools.key("ArrowRight")
        board = Board()
        board.feed(tools.evaluate("document.documentElement.outerHTML"))
        assert board.rows == drawn(game.drawing(states[1]))


@needs_chromium
@pytest.mark.parametrize("name", quick_first(["freecell", "klondike", "gaps", "crisscross"], {"klondike"}))
def test_the_screenshot_is_not_blank(name, tmp_path):
    game = GAMES[name]
    start, steps = random_line(game)
    page = tmp_path / f"{name}.html"
    replay_page.write_page(game, start, steps, page, critical=[1, 5])
    shot = tmp_path / f"{name}.png"
    browse(page, tmp_path, f"--screenshot={shot}", f"{page.as_uri()}#step=5")
    width, height, colours = png_colours(shot.read_bytes())
    assert (width, height) == (1100, 800)
    assert len(colours) > 20                     # cards, felt, text: far from one colour


def png_colours(data: bytes) -> tuple[int, int, set[bytes]]:
    """Return a PNG's size and its set of pixel colours (8-bit RGB or RGBA, not interlaced)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, b"", b""
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + size]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        at += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    pixel = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(chunks), width * pixel
    previous, colours = bytearray(stride), set()
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - pixel] if i >= pixel else 0
            up, corner = previous[i], previous[i - pixel] if i >= pixel else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))[2]
                line[i] = (line[i] + near) & 255
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, pixel * 7))
        previous = line
    return width, height, colours


class DevTools:
    """Chromium driven over ``--remote-debugging-pipe`` (file descriptors 3 and 4)."""

    def __init__(self, tmp_path: Path, page: Path) -> None:
        self.tmp_path, self.page, self.calls = tmp_path, page, 0

    def __enter__(self) -> "DevTools":
        to_browser, self.writer = os.pipe()
        self.reader, from_browser = os.pipe()
        profile = self.tmp_path / "devtools-profile"
        profile.mkdir()
        assert CHROMIUM is not None

        def fds() -> None:              # in the child: its reads on 3, its writes on 4
            read, write = os.dup(to_browser), os.dup(from_browser)   # above 4, whatever they were
            os.dup2(read, 3)
            os.dup2(write, 4)

        # close_fds=False: Popen would otherwise close 3 and 4 after preexec_fn
        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe",
             "about:blank"], close_fds=False, preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self.buffer = b""
        target = self.call("Target.createTarget", url=f"{self.page.as_uri()}#step=0")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        deadline = time.monotonic() + 60           # a loaded machine starts pages slowly
        while not (self.evaluate("document.readyState") == "complete"
                   and self.evaluate("typeof window.replay") == "object"):
            assert time.monotonic() < deadline, "the page did not load within 60 s"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.writer)
        os.close(self.reader)

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.calls += 1
        message: dict[str, Any] = {"id": self.calls, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.writer, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.reader, 1 << 16)
                assert chunk, "chromium closed its pipe"
                self.buffer += chunk
            text, _, self.buffer = self.buffer.partition(b"\0")
            answer = json.loads(text)
            if answer.get("id") == self.calls:
                assert "error" not in answer, answer
                return answer["result"]  # type: ignore[no-any-return]

    def evaluate(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", self.session, expression=expression,
                         returnByValue=True)["result"].get("value")

    def key(self, name: str) -> None:
        codes = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", self.session, type=kind, key=name, code=name,
                      windowsVirtualKeyCode=codes[name])

    def step(self) -> int:
        return int(self.evaluate("window.replay.step"))
