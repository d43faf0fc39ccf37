"""Exports of a replay: an animated GIF (Pillow), an MP4 (imageio with ffmpeg) and an offline HTML page."""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

import numpy as np
from PIL import Image

from stonk_envs import render
from stonk_envs.core.game import Game
from stonk_envs.replay.timeline import Moment
from stonk_envs.text import printable

EXPORT_SUFFIXES = {"gif": ".gif", "mp4": ".mp4", "html": ".html"}


def check_output(path: Path, kind: str) -> None:
    """ValueError unless ``path`` can be written as a ``kind`` file (checked before any work)."""
    suffix = EXPORT_SUFFIXES[kind]
    if path.suffix.lower() != suffix:
        raise ValueError(f"--{kind} {path}: the file name must end in {suffix}")
    if path.is_dir():
        raise ValueError(f"--{kind} {path}: is a folder")
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ValueError(f"--{kind} {path}: {parent} is not a folder")


def frames(game: Game, moments: list[Moment], seat: int | None) -> list[np.ndarray]:
    """The picture of each moment from ``seat`` (None: everything)."""
    return [render.draw(game, m.states, 0, seat, m.moves, m.summary) for m in moments]


def paletted(pictures: list[np.ndarray], colours: int = 128) -> list[Image.Image]:
    """The pictures in one shared palette (from the first, middle and last), which GIF needs and PNG likes."""
    samples = np.concatenate([pictures[0], pictures[len(pictures) // 2], pictures[-1]], axis=0)
    palette = Image.fromarray(samples).quantize(colors=colours, method=Image.Quantize.MEDIANCUT)
    return [Image.fromarray(p).quantize(palette=palette, dither=Image.Dither.NONE) for p in pictures]


def write_gif(path: Path, pictures: list[np.ndarray], fps: float) -> Path:
    """An animated GIF that loops, ``fps`` pictures a second; the last picture stays for 3 s."""
    images = paletted(pictures)
    durations = [round(1000 / fps)] * len(images)
    durations[-1] = max(durations[-1], 3000)
    path.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0)
    return path


def write_mp4(path: Path, pictures: list[np.ndarray], fps: float) -> Path:
    """An H.264 MP4; needs the ``video`` extra (imageio and imageio-ffmpeg)."""
    try:
        import imageio.v2 as imageio
        import imageio_ffmpeg  # noqa: F401  (imageio needs it for MP4)
    except ImportError as error:
        raise ValueError("MP4 export needs imageio and imageio-ffmpeg: pip install 'stonk_envs[video]'") from error
    path.parent.mkdir(parents=True, exist_ok=True)
    with imageio.get_writer(path, fps=fps, codec="libx264", macro_block_size=1, pixelformat="yuv420p") as writer:
        for picture in pictures:
            writer.append_data(_even(picture))
    return path


def _even(picture: np.ndarray) -> np.ndarray:
    """Pad to even width and height (H.264 in yuv420p needs them)."""
    h, w, _ = picture.shape
    return np.pad(picture, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")


def data_uri(image: Image.Image) -> str:
    """The picture as an inline PNG."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def write_html(
    path: Path,
    title: str,
    moments: list[Moment],
    pictures: list[np.ndarray],
    total: int,
    players: list[str] | None = None,
) -> Path:
    """Write :func:`html_page` to ``path``."""
    page = html_page(title, moments, pictures, total, players)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


def html_page(
    title: str, moments: list[Moment], pictures: list[np.ndarray], total: int, players: list[str] | None = None
) -> str:
    """One self-contained page: who sat where, the pictures inline, a slider, play/pause, and each
    step's moves (void ones marked) and round summary in words."""
    steps = [
        {"title": m.title(total), "moves": m.moves, "summary": m.summary, "over": m.game_over, "image": data_uri(image)}
        for m, image in zip(moments, paletted(pictures), strict=True)
    ]
    seats = "seats: " + (
        ", ".join(f"player_{p} {printable(who)}" for p, who in enumerate(players))
        if players
        else "who held them was not recorded"
    )
    return (
        PAGE.replace("__TITLE__", html.escape(title))
        .replace("__SEATS__", html.escape(seats))
        .replace("__STEPS__", json.dumps(steps).replace("</", "<\\/"))
    )


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { background: #181e28; color: #eceff5; font: 15px system-ui, sans-serif; margin: 16px; }
h1 { font-size: 18px; margin: 0 0 10px; }
#frame { display: block; max-width: 100%; border-radius: 8px; }
.bar { display: flex; align-items: center; gap: 10px; margin: 10px 0; }
#slider { flex: 1; }
button { background: #38465a; color: #eceff5; border: 0; border-radius: 6px; padding: 6px 12px; cursor: pointer; }
#label { min-width: 140px; font-weight: 600; }
#moves { margin: 0; padding-left: 20px; line-height: 1.5; }
.quiet { color: #96a0b2; }
.void { color: #eb5f5a; }
#seats { color: #96a0b2; margin: 0 0 10px; }
#summary { margin: 8px 0; padding: 8px 12px; border: 2px solid #f4c446; border-radius: 8px; white-space: pre-wrap; }
#summary:empty { display: none; }
</style></head>
<body>
<h1>__TITLE__</h1>
<p id="seats">__SEATS__</p>
<img id="frame" alt="the table">
<div class="bar">
  <button id="prev" title="previous step (left arrow)">&#9664;</button>
  <button id="play" title="play or pause (space)">play</button>
  <button id="next" title="next step (right arrow)">&#9654;</button>
  <input id="slider" type="range" min="0" value="0">
  <span id="label"></span>
</div>
<div id="summary"></div>
<ul id="moves"></ul>
<script>
const steps = __STEPS__;
const slider = document.getElementById("slider");
const frame = document.getElementById("frame");
const label = document.getElementById("label");
const moves = document.getElementById("moves");
const summary = document.getElementById("summary");
const play = document.getElementById("play");
let timer = null;
slider.max = steps.length - 1;
function show(k) {
  k = Math.max(0, Math.min(steps.length - 1, k));
  const step = steps[k];
  slider.value = k;
  frame.src = step.image;
  label.textContent = step.title + (step.over ? " (game over)" : "");
  moves.innerHTML = "";
  const lines = step.moves.length ? step.moves : [k === 0 ? "cards dealt" : "everyone waits"];
  for (const text of lines) {
    const item = document.createElement("li");
    item.textContent = text;
    if (!step.moves.length) item.className = "quiet";
    else if (text.includes(" - VOID: ")) item.className = "void";
    moves.appendChild(item);
  }
  summary.textContent = step.summary.join("\\n");
  history.replaceState(null, "", "#step=" + k);
}
function toggle() {
  if (timer) { clearInterval(timer); timer = null; play.textContent = "play"; return; }
  play.textContent = "pause";
  timer = setInterval(() => {
    if (+slider.value >= steps.length - 1) { toggle(); return; }
    show(+slider.value + 1);
  }, 250);
}
slider.addEventListener("input", () => show(+slider.value));
document.getElementById("prev").onclick = () => show(+slider.value - 1);
document.getElementById("next").onclick = () => show(+slider.value + 1);
play.onclick = toggle;
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") show(+slider.value - 1);
  if (e.key === "ArrowRight") show(+slider.value + 1);
  if (e.key === " ") { e.preventDefault(); toggle(); }
});
const start = /#step=(\\d+)/.exec(location.hash);
show(start ? +start[1] : 0);
</script>
</body></html>
"""
