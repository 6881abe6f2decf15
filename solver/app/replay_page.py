"""The replay page: one self-contained HTML file that steps through a line of play.

``write_page`` draws the position after each step with the game's ``drawing`` (piles of
cards in rows, ``solver.layout``) and writes them, with the steps' notation and words,
into one HTML file whose inline script shows one position at a time: forward, back, to
any step (the slider, the step list, the strip under the board), by the keyboard too
(arrows, Home, End), and from the address (``page.html#step=12``). It needs no network
and no other file: the cards are drawn with CSS and Unicode suit signs, face-down cards
as card backs. The strip under the board marks the critical steps it is given (where one
move alone kept the deal winnable); with none given it marks none.

The page exposes ``window.replay`` (``go(n)``, ``step``, ``steps``) for scripts and
tests, and keeps each drawn pile's name and cards in ``data-`` attributes, so that a test
in a browser can read the board back and compare it with the rules' position.
"""
from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any, Iterable, Sequence

from solver.game import Game, SolitaireError, quote


def frames(game: Game[Any, Any], state: Any, steps: Sequence[Any]) -> list[dict[str, Any]]:
    """Return the layout of `state` and of the position after each step (len(steps) + 1)."""
    drawn = [game.drawing(state)]
    for step in steps:
        state = game.play(state, step)
        drawn.append(game.drawing(state))
    return drawn


def page_data(game: Game[Any, Any], state: Any, steps: Sequence[Any],
              critical: Iterable[int] = (), title: str = "") -> dict[str, Any]:
    """Return what the page's script reads: the frames, each step's notation and words,
    the critical steps (0-based indices into `steps`) and the title."""
    words = []
    position = state
    for step in steps:
        words.append({"notation": game.notation(step), "words": game.describe(position, step)})
        position = game.play(position, step)
    marked = sorted({int(i) for i in critical if 0 <= int(i) < len(steps)})
    return {"title": title or game.name, "game": game.name, "frames": frames(game, state, steps),
            "steps": words, "critical": marked, "won": game.is_won(position)}


def page(data: dict[str, Any]) -> str:
    """Return the HTML of the page showing `data` (from ``page_data``)."""
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (_TEMPLATE.replace("__TITLE__", html.escape(data["title"]))
            .replace("__STYLE__", _STYLE).replace("__SCRIPT__", _SCRIPT)
            .replace("__DATA__", payload))


def check_writable(path: Path, what: str = "the page") -> None:
    """Raise SolitaireError when `path` cannot be written (before a long search)."""
    where = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise SolitaireError(f"cannot write {what} to {quote(str(path), 60)}: it is a directory")
    if not where.is_dir():
        raise SolitaireError(f"cannot write {what} to {quote(str(path), 60)}: "
                             "no such directory")
    if not os.access(where, os.W_OK) or path.exists() and not os.access(path, os.W_OK):
        raise SolitaireError(f"cannot write {what} to {quote(str(path), 60)}: permission denied")


def write_page(game: Game[Any, Any], state: Any, steps: Sequence[Any], path: Path | str,
               critical: Iterable[int] = (), title: str = "") -> None:
    """Write the replay page of `steps` (the game's steps, legal in turn) from `state`.

    `critical` are indices into `steps` (0-based) of the moves the strip marks; `title`
    heads the page (default: the game's name). A file that cannot be written raises
    SolitaireError with the reason in one line.
    """
    target = Path(path)
    text = page(page_data(game, state, steps, critical, title))
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise SolitaireError(f"cannot write the page to {quote(str(target), 60)}: "
                             f"{reason.lower()}") from None


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__STYLE__</style>
</head>
<body>
<header><h1 id="title">__TITLE__</h1><p id="summary"></p></header>
<main>
<section id="table"><div id="board" aria-live="polite"></div><ul id="notes"></ul></section>
<nav id="controls">
<button id="first" title="the deal (Home)">|&#x25C0;</button>
<button id="back" title="back (left arrow)">&#x25C0;</button>
<span id="counter"></span>
<button id="forward" title="forward (right arrow)">&#x25B6;</button>
<button id="last" title="the last position (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" value="0" aria-label="step">
</nav>
<p id="move"></p>
<div id="strip" title="each step of the line; critical steps in red"></div>
<ol id="steps" start="1"></ol>
</main>
<script type="application/json" id="replay-data">__DATA__</script>
<script>__SCRIPT__</script>
</body>
</html>
"""

_STYLE = """
:root { --w: 46px; --h: 64px; --felt: #1d6b3a; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; background: #f2f2ee; color: #222; }
header { padding: 8px 16px; background: #2a3b2e; color: #fff; }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 2px 0 0; font-size: 14px; opacity: .85; }
main { padding: 8px 16px; }
#table { background: var(--felt); border-radius: 8px; padding: 10px; overflow-x: auto; }
#board { display: flex; flex-direction: column; gap: 10px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; }
.pile { position: relative; min-width: var(--w); }
.slot { position: relative; min-width: var(--w); min-height: var(--h);
        border: 2px dashed rgba(255,255,255,.35); border-radius: 5px; }
.label { color: #dfe; font-size: 10px; text-align: center; max-width: 120px;
         white-space: nowrap; overflow: hidden; text-overflow: ellipsis; margin-top: 2px; }
.card { position: absolute; width: var(--w); height: var(--h); border-radius: 5px;
        background: #fff; border: 1px solid #555; font-weight: 600; font-size: 15px;
        line-height: 1; padding: 3px; color: #111; box-shadow: 1px 1px 2px rgba(0,0,0,.35); }
.card .big { position: absolute; right: 4px; bottom: 3px; font-size: 24px; }
.card.red { color: #c8102e; }
.card.joker { color: #6a1b9a; }
.card.down { background: repeating-linear-gradient(45deg, #27408b 0 4px, #3a5bc7 4px 8px);
             border: 2px solid #fff; }
.card.down > * { display: none; }
.card.tile { background: #fffbe8; width: calc(var(--w) * 1.3); display: flex;
             align-items: center; justify-content: space-around; font-size: 18px; }
.card.tile span + span { border-left: 2px solid #333; padding-left: 6px; }
.card.moved { outline: 3px solid #ffd400; outline-offset: -1px; }
.count { position: absolute; right: -6px; top: -8px; background: #222; color: #fff;
         border-radius: 8px; font-size: 10px; padding: 1px 5px; z-index: 200; }
#notes { color: #fff; margin: 6px 0 0; padding-left: 18px; font-size: 13px; }
#controls { display: flex; align-items: center; gap: 6px; margin-top: 10px; }
#controls button { font-size: 18px; min-width: 40px; }
#slider { flex: 1; }
#counter { min-width: 110px; text-align: center; font-variant-numeric: tabular-nums; }
#move { min-height: 1.4em; margin: 6px 0; font-size: 15px; }
#strip { display: flex; height: 18px; border: 1px solid #999; background: #ddd; cursor: pointer; }
#strip div { flex: 1; border-right: 1px solid rgba(0,0,0,.08); }
#strip div.critical { background: #d62728; }
#strip div.current { outline: 2px solid #000; outline-offset: -2px; background-color: #ffd400; }
#strip div.critical.current { background: #8b0000; }
#steps { columns: 4 240px; column-gap: 24px; font-size: 13px; padding-left: 0;
         list-style-position: inside; }
#steps li { cursor: pointer; break-inside: avoid; }
#steps li.current { background: #ffd400; }
#steps li.critical::after { content: " (critical)"; color: #d62728; }
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var board = document.getElementById("board"), slider = document.getElementById("slider");
  var list = document.getElementById("steps"), strip = document.getElementById("strip");
  var last = data.frames.length - 1, current = -1;
  var critical = {};
  data.critical.forEach(function (i) { critical[i] = true; });

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cardNode(token) {
    var down = token.charAt(0) === "<", name = down ? token.slice(1, -1) : token;
    var node = el("div", "card");
    node.setAttribute("data-card", token);
    var m = /^(10|[A2-9TJQK])([CDHS])$/.exec(name);
    if (m) {
      var rank = m[1] === "T" ? "10" : m[1], suit = SUITS[m[2]];
      if (m[2] === "D" || m[2] === "H") node.className += " red";
      node.appendChild(el("span", "", rank + suit));
      node.appendChild(el("span", "big", suit));
      node.title = rank + suit;
    } else if (name === "JK") {
      node.className += " joker";
      node.appendChild(el("span", "", "\u2605"));
      node.appendChild(el("span", "big", "JK"));
      node.title = "joker";
    } else {
      node.className += " tile";
      name.split("-").forEach(function (half) { node.appendChild(el("span", "", half)); });
      node.title = name;
    }
    if (down) { node.className += " down"; node.title = "face down"; }
    return node;
  }

  function pileNode(pile, moved) {
    var box = el("div", "pile"), slot = el("div", "slot");
    box.setAttribute("data-pile", pile.name);
    var n = pile.cards.length, x = 0, y = 0, w = 46, h = 64, tile = 46 * 1.3, widest = w;
    var spread = n > 13 ? Math.max(4, Math.floor(200 / (n - 1))) : 16;
    pile.cards.forEach(function (token, i) {
      var card = cardNode(token), down = token.charAt(0) === "<";
      var width = card.className.indexOf("tile") >= 0 ? tile : w;
      widest = Math.max(widest, width);
      if (pile.fan === "stack") { x = 0; y = 0; }
      card.style.left = x + "px"; card.style.top = y + "px"; card.style.zIndex = i + 1;
      if (moved[pile.name + "|" + token.replace(/[<>]/g, "")] && i >= n - 13) card.className += " moved";
      slot.appendChild(card);
      if (pile.fan === "down") y += down ? 7 : 18;
      else if (pile.fan === "right") x += spread;
      else if (pile.fan === "row") x += width + 4;
    });
    if (pile.fan === "down") slot.style.height = (h + y - (n ? (pile.cards[n - 1].charAt(0) === "<" ? 7 : 18) : 0)) + "px";
    if (pile.fan === "right" && n) slot.style.width = (widest + x - spread) + "px";
    if (pile.fan === "stack" || pile.fan === "down") slot.style.width = widest + "px";
    if (pile.fan === "row" && n) slot.style.width = (x - 4) + "px";
    if (pile.fan === "stack" && n > 1) slot.appendChild(el("span", "count", String(n)));
    box.appendChild(slot);
    box.appendChild(el("div", "label", pile.name));
    return box;
  }

  function counts(frame) {
    var count = {};
    frame.rows.forEach(function (row) { row.forEach(function (pile) {
      pile.cards.forEach(function (token) {
        var id = pile.name + "|" + token.replace(/[<>]/g, "");
        count[id] = (count[id] || 0) + 1;
      });
    }); });
    return count;
  }

  // The cards a step brought to a pile: more of them there than before (two decks
  // hold each card twice, so cards are counted pile by pile).
  function movedCards(n) {
    if (n === 0) return {};
    var before = counts(data.frames[n - 1]), after = counts(data.frames[n]), moved = {};
    Object.keys(after).forEach(function (id) {
      if (after[id] > (before[id] || 0)) moved[id] = true;
    });
    return moved;
  }

  function draw(n) {
    var frame = data.frames[n], moved = movedCards(n);
    board.textContent = "";
    board.setAttribute("data-step", String(n));
    frame.rows.forEach(function (row) {
      var line = el("div", "row");
      row.forEach(function (pile) { line.appendChild(pileNode(pile, moved)); });
      board.appendChild(line);
    });
    var notes = document.getElementById("notes");
    notes.textContent = "";
    (frame.notes || []).forEach(function (note) { notes.appendChild(el("li", "", note)); });
  }

  function go(n) {
    n = Math.max(0, Math.min(last, Math.floor(Number(n)) || 0));
    if (n === current) return n;
    current = n;
    draw(n);
    slider.value = String(n);
    document.getElementById("counter").textContent = "step " + n + " of " + last;
    var text = n === 0 ? "The deal." : n + ". " + data.steps[n - 1].notation + ": " +
      data.steps[n - 1].words + (critical[n - 1] ? " (critical)" : "");
    if (n === last && last > 0) text += data.won ? " Won." : " End of the line.";
    document.getElementById("move").textContent = text;
    Array.prototype.forEach.call(list.children, function (li, i) {
      li.className = (i === n - 1 ? "current" : "") + (critical[i] ? " critical" : "");
    });
    Array.prototype.forEach.call(strip.children, function (cell, i) {
      cell.className = (critical[i] ? "critical" : "") + (i === n - 1 ? " current" : "");
    });
    if (history.replaceState) history.replaceState(null, "", "#step=" + n);
    return n;
  }

  function fromHash() {
    var m = /step=(\d+)/.exec(location.hash);
    return m ? Number(m[1]) : 0;
  }

  data.steps.forEach(function (step, i) {
    var li = el("li", critical[i] ? "critical" : "", step.notation + ": " + step.words);
    li.addEventListener("click", function () { go(i + 1); });
    list.appendChild(li);
    var cell = el("div", critical[i] ? "critical" : "");
    cell.title = (i + 1) + ". " + step.notation + (critical[i] ? " (critical)" : "");
    cell.setAttribute("data-step", String(i + 1));
    cell.addEventListener("click", function () { go(i + 1); });
    strip.appendChild(cell);
  });
  if (!data.steps.length) strip.style.display = "none";
  var count = data.critical.length;
  document.getElementById("summary").textContent = last + " step" + (last === 1 ? "" : "s") +
    (last ? (data.won ? ", won" : ", not won") : "") +
    (count ? "; " + count + " critical (marked red)" : "") +
    ". Keys: \u2190 \u2192 step, Home / End.";
  slider.max = String(last);
  slider.addEventListener("input", function () { go(slider.value); });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("back").addEventListener("click", function () { go(current - 1); });
  document.getElementById("forward").addEventListener("click", function () { go(current + 1); });
  document.getElementById("last").addEventListener("click", function () { go(last); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var to = {ArrowRight: current + 1, ArrowDown: current + 1, ArrowLeft: current - 1,
              ArrowUp: current - 1, Home: 0, End: last}[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  });
  window.addEventListener("hashchange", function () { go(fromHash()); });
  window.replay = {go: go, steps: last, get step() { return current; }};
  go(fromHash());
})();
"""
