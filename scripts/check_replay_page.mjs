// Open a replay page (stonk-envs replay --html) in headless Chromium, move its slider as a
// person would (set the value, fire "input"), press the buttons and the arrow keys, and print
// what the page shows at each step; saves a screenshot after each move.
//   node --experimental-websocket scripts/check_replay_page.mjs PAGE.html OUT_FOLDER
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

const [page, out] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const port = 9333;
const browser = spawn("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--offline",
  `--remote-debugging-port=${port}`, "--window-size=1200,900", "about:blank"], { stdio: "ignore" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let targets;
for (let i = 0; i < 50 && !targets; i++) {
  await sleep(200);
  try { targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json(); } catch { /* not up yet */ }
}
const ws = new WebSocket(targets.find((t) => t.type === "page").webSocketDebuggerUrl);
await new Promise((r) => ws.addEventListener("open", r));
let id = 0;
const pending = new Map();
ws.addEventListener("message", (e) => {
  const msg = JSON.parse(e.data);
  if (pending.has(msg.id)) { pending.get(msg.id)(msg.result); pending.delete(msg.id); }
});
const send = (method, params = {}) => new Promise((r) => { pending.set(++id, r); ws.send(JSON.stringify({ id, method, params })); });
const js = async (expr) => (await send("Runtime.evaluate", { expression: expr, returnByValue: true })).result.value;
const state = () => js(`({slider: +slider.value, max: +slider.max, label: label.textContent,
  moves: [...moves.children].map((li) => li.textContent), hash: location.hash,
  imageLoaded: frame.complete && frame.naturalWidth > 0, width: frame.naturalWidth})`);
async function shot(name) {
  const { data } = await send("Page.captureScreenshot", { format: "png" });
  writeFileSync(`${out}/${name}.png`, Buffer.from(data, "base64"));
}

await send("Page.enable");
await send("Page.navigate", { url: "file://" + resolve(page) });
await sleep(1500);
const report = { opened: await state() };
const last = report.opened.max;
await js(`slider.value = ${Math.floor(last / 2)}; slider.dispatchEvent(new Event("input"))`);
await sleep(200);
report.slider_to_middle = await state();
await shot("slider_middle");
await js(`document.getElementById("next").click()`);
await sleep(100);
report.next_button = await state();
await send("Input.dispatchKeyEvent", { type: "keyDown", key: "ArrowLeft", code: "ArrowLeft", windowsVirtualKeyCode: 37 });
await send("Input.dispatchKeyEvent", { type: "keyUp", key: "ArrowLeft", code: "ArrowLeft", windowsVirtualKeyCode: 37 });
await sleep(100);
report.left_arrow = await state();
await js(`slider.value = ${last}; slider.dispatchEvent(new Event("input"))`);
await sleep(200);
report.slider_to_end = await state();
await shot("slider_end");
await js(`document.getElementById("play").click()`);
await js(`slider.value = 0; slider.dispatchEvent(new Event("input"))`);
await sleep(1100);
report.playing_from_start = await state();
console.log(JSON.stringify(report, null, 1));
ws.close();
browser.kill();
process.exit(0);
