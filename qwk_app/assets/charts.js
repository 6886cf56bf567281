// The browser half of qwk_app/charts.py: draws the HTML that Python built, and does what must
// happen without a round trip to the server.
//
// data.kind === "chart": data.html is one chart (qwk_explained/present/charts.py). Hovering or
// focusing a cell lights up the same cell (data-cell="i,j") in every chart on the page and its
// two histogram bars, and shows the cell's explanation (drawn from its data-tip on first
// use); a click on a cell is sent to Python as the trigger "cell" ("i,j"); the
// full-screen button shows the chart alone; a matrix's type grows or shrinks to the width of its
// column (fit); when the numbers no longer fit even then, they are hidden (class qwk-compact)
// and stay readable in each cell's explanation.
// With data.cuts (the scores chart, qwk_explained/present/score_chart.py), each cut point
// (class qwk-cut, data-cut=k) can be dragged with a mouse, a pen or a finger, or moved with the
// arrow keys once focused; where it is let go is sent as the trigger "cut" ("k:value").
// data.kind === "copy": a button that copies data.text, also on touch screens and on plain http
// (where navigator.clipboard does not exist), then says data.done for a moment.
// data.kind === "keys": presentation clickers and keyboards. ArrowRight, PageDown and space press
// the button whose widget key is data.next, ArrowLeft and PageUp the one of data.previous (a
// clicker sends these keys), unless the reader is typing in a field or using a control that
// takes these keys itself. Nothing visible is drawn.
// Every kind carries data.lang, the reader's language: it becomes the page's own (<html lang>,
// which Streamlit leaves at "en"), so screen readers speak it with the right voice and the
// browser sets each script as that language is set. The share box draws one on every page.

const LINKED = "qwk-linked";
let lit = null;

function lightUp(cell) {
  // One cell lit at a time in the whole page: whatever was lit before (in any chart, even one
  // redrawn since) goes dark first.
  if (cell === lit && (!cell || document.querySelector(`.${LINKED}`))) return;
  lit = cell;
  for (const element of document.querySelectorAll(`.${LINKED}`)) {
    element.classList.remove(LINKED);
  }
  if (!cell) return;
  const [i, j] = cell.split(",");
  const selector = `.qwk-root [data-cell="${i},${j}"], .qwk-root [data-bar="a:${i}"], `
    + `.qwk-root [data-bar="p:${j}"]`;
  for (const element of document.querySelectorAll(selector)) {
    element.classList.add(LINKED);
  }
}

// One chart on the whole screen fills it: its type grows until the matrix (or the bars) takes
// 90 % of the width or 80 % of the height, whichever comes first; back to normal on leaving.
function fillScreen() {
  const chart = document.fullscreenElement;
  for (const other of document.querySelectorAll(".qwk-chart[data-qwk-filled]")) {
    if (other !== chart) { other.style.fontSize = ""; delete other.dataset.qwkFilled; }
  }
  if (!chart || !chart.matches(".qwk-chart")) return;
  const body = chart.querySelector(".qwk-grid") || chart;
  chart.style.fontSize = "16px";
  const box = body.getBoundingClientRect();
  const title = chart.querySelector(".qwk-title");
  const titleHeight = title ? title.getBoundingClientRect().height : 0;
  const factor = Math.min(0.9 * window.innerWidth / Math.max(box.width, 1),
    0.8 * window.innerHeight / Math.max(box.height + titleHeight, 1));
  chart.style.fontSize = `${Math.max(16, Math.floor(16 * factor))}px`;
  chart.dataset.qwkFilled = "1";
}
if (!window.qwkFillScreen) {
  window.qwkFillScreen = true;
  document.addEventListener("fullscreenchange", fillScreen);
  // A taller or shorter window changes the room a presented step leaves its charts.
  window.addEventListener("resize", () => {
    if (document.fullscreenElement) fillScreen();
    else document.querySelectorAll(".qwk-root").forEach(fitLater);
  });
}

// The charts drawn in one rerun, measured together in the next frame (before it is painted).
const unfitted = new Set();
// How far a matrix's type may grow to fill the width of its column (and, up to the height
// charts.css allows it, --qwk-fit-height), and shrink before its numbers are hidden instead.
const GROW = 2;
const SHRINK = 0.75;

function fitLater(root) {
  // Reading a width right after changing the page makes the browser lay the whole page out
  // there and then; one chart after another, that was a full layout per chart. Queued, every
  // matrix is set back to its natural size, then every size is read (one layout), then each
  // is scaled to its room, or its numbers hidden where even the smallest type does not fit.
  if (!unfitted.size) requestAnimationFrame(fit);
  unfitted.add(root);
}

function pixels(style, name) {
  // A length registered by charts.css (@property) reads back in px; a browser without
  // @property gives the text as written ("70vh"): then no limit is known (0).
  const value = style.getPropertyValue(name).trim();
  return value.endsWith("px") ? parseFloat(value) : 0;
}

function roomBelow(figure) {
  // Presenter mode (--qwk-fit-bottom): from the chart's top on the page down to the step's
  // buttons at the screen's bottom; otherwise the height charts.css allows (--qwk-fit-height).
  const style = getComputedStyle(figure);
  const bottom = pixels(style, "--qwk-fit-bottom");
  if (!(bottom > 0)) return pixels(style, "--qwk-fit-height") || Infinity;
  const main = figure.closest('[data-testid="stMain"]');
  return window.innerHeight - bottom - figure.getBoundingClientRect().top
    - (main ? main.scrollTop : 0);
}

function fit() {
  const roots = [...unfitted];
  unfitted.clear();
  const figures = roots
    .flatMap((root) => [...root.querySelectorAll(".qwk-matrix:not(.qwk-dense)")])
    .filter((figure) => figure !== document.fullscreenElement);
  const bars = roots.flatMap((root) => [...root.querySelectorAll(".qwk-bars")])
    .filter((figure) => figure !== document.fullscreenElement);
  for (const figure of figures) {
    figure.classList.remove("qwk-compact");
    figure.style.removeProperty("--qwk-scale");
  }
  for (const figure of bars) figure.querySelector(".qwk-plot").style.height = "";
  const sizes = figures.map((figure) => {
    const scroll = figure.querySelector(".qwk-scroll");
    const grid = figure.querySelector(".qwk-grid");
    return { room: 0.98 * scroll.clientWidth, width: Math.max(grid.offsetWidth, 1),
      height: Math.max(grid.offsetHeight, 1),
      tall: roomBelow(figure) - (figure.offsetHeight - scroll.offsetHeight) };
  });
  const plots = bars.map((figure) => {
    const plot = figure.querySelector(".qwk-plot");
    return pixels(getComputedStyle(figure), "--qwk-fit-bottom") > 0
      ? roomBelow(figure) - (figure.offsetHeight - plot.offsetHeight) : null;
  });
  figures.forEach((figure, k) => {
    const { room, width, height, tall } = sizes[k];
    const scale = Math.min(room / width, tall / height, GROW);
    if (room / width < SHRINK) figure.classList.add("qwk-compact");
    else figure.style.setProperty("--qwk-scale", Math.max(scale, SHRINK).toFixed(3));
  });
  bars.forEach((figure, k) => {
    // Never so flat that the bars stop telling their heights apart.
    if (plots[k] !== null) {
      figure.querySelector(".qwk-plot").style.height = `${Math.max(plots[k], 120)}px`;
    }
  });
}

// A cell's explanation waits in its data-tip (HTML that Python built: numbers and translated
// words, everything else escaped) and becomes an element the first time the cell is hovered or
// focused; charts.css shows it while the cell is. Built for every cell on every rerun, the
// explanations were half of the charts' elements.
function showTip(cell) {
  if (cell.dataset.tip && !cell.querySelector(":scope > .qwk-tip")) {
    cell.insertAdjacentHTML("beforeend",
      `<span class="qwk-tip" role="tooltip">${cell.dataset.tip}</span>`);
  }
}

function drawChart(component, root) {
  const { data, setTriggerValue } = component;
  if (root.qwkHtml !== data.html) {
    root.innerHTML = data.html;
    root.qwkHtml = data.html;
    root.classList.toggle("qwk-clickable", Boolean(data.clickable));
    fitLater(root);
  }
  const enter = (event) => {
    const target = event.target.closest("[data-cell]");
    if (target) {
      lightUp(target.dataset.cell);
      showTip(target);
    }
  };
  const leave = (event) => {
    const target = event.target.closest("[data-cell]");
    const next = event.relatedTarget && event.relatedTarget.closest
      ? event.relatedTarget.closest("[data-cell]") : null;
    if (target && next !== target) lightUp(next ? next.dataset.cell : null);
  };
  root.onmouseover = enter;
  root.onmouseout = leave;
  // Chromium has no onfocusin/onfocusout properties: the keyboard's listeners are added once
  // (they read nothing of this drawing's data).
  if (!root.qwkFocusListeners) {
    root.qwkFocusListeners = true;
    root.addEventListener("focusin", enter);
    root.addEventListener("focusout", leave);
  }
  root.onclick = (event) => {
    const full = event.target.closest(".qwk-full");
    if (full) {
      const figure = full.closest(".qwk-chart");
      if (document.fullscreenElement) document.exitFullscreen();
      else if (figure && figure.requestFullscreen) figure.requestFullscreen();
      return;
    }
    const cell = event.target.closest("[data-cell]");
    if (cell && data.clickable) setTriggerValue("cell", cell.dataset.cell);
  };
  if (data.cuts) dragCuts(root, data, setTriggerValue);
  if (!root.qwkResize && typeof ResizeObserver !== "undefined") {
    let width = root.clientWidth;
    root.qwkResize = new ResizeObserver(() => {
      if (root.clientWidth !== width) {
        width = root.clientWidth;
        fitLater(root);
      }
    });
    root.qwkResize.observe(root);
  }
}

function dragCuts(root, data, setTriggerValue) {
  // The SVG's viewBox is scaled to the page: pointer positions go through its bounding box.
  const svg = root.querySelector("svg[data-low]");
  if (!svg) return;
  const number = (name) => Number(svg.dataset[name]);
  const [low, high, left, right, width] = ["low", "high", "left", "right", "width"].map(number);
  const toValue = (clientX) => {
    const box = svg.getBoundingClientRect();
    const x = Math.min(Math.max((clientX - box.left) / box.width * width, left), right);
    return low + (x - left) / (right - left) * (high - low);
  };
  const place = (cut, value) => {
    const x = (left + (value - low) / (high - low) * (right - left)).toFixed(1);
    for (const line of cut.querySelectorAll("line")) {
      line.setAttribute("x1", x);
      line.setAttribute("x2", x);
    }
    const text = cut.querySelector("text");
    text.setAttribute("x", x);
    text.textContent = value.toFixed(3).replace(".", data.decimal || ".");
  };
  const send = (cut, value) => setTriggerValue("cut", `${cut.dataset.cut}:${value}`);
  // Chromium reads touch-action on the outer <svg> only: a sideways finger drags a cut point
  // (a vertical one still scrolls the page); on a <g> alone the browser took the drag for a
  // scroll and cancelled it.
  svg.style.touchAction = "pan-y";
  for (const cut of svg.querySelectorAll(".qwk-cut")) {
    cut.onpointerdown = (event) => {
      event.preventDefault();
      cut.setPointerCapture(event.pointerId);
      cut.onpointermove = (move) => place(cut, toValue(move.clientX));
      cut.onpointerup = (up) => {
        cut.onpointermove = null;
        cut.onpointerup = null;
        send(cut, toValue(up.clientX));
      };
    };
    cut.onkeydown = (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const value = Number(cut.dataset.value) + step * (high - low) / 200;
      place(cut, value);
      send(cut, value);
    };
  }
}

function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    return navigator.clipboard.writeText(text);
  }
  // Plain http on a classroom network: no Clipboard API, but a selected text area still copies.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  area.setSelectionRange(0, text.length);
  const done = document.execCommand("copy");
  area.remove();
  return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
}

function drawCopy(component, root) {
  const { data } = component;
  let button = root.querySelector("button.qwk-copy");
  if (!button) {
    root.innerHTML = '<button type="button" class="qwk-copy"></button>'
      + '<span class="qwk-copied" role="status" aria-live="polite"></span>';
    button = root.querySelector("button.qwk-copy");
  }
  button.textContent = data.label;
  const status = root.querySelector(".qwk-copied");
  button.onclick = () => {
    copyText(data.text).then(() => {
      status.textContent = data.done;
      clearTimeout(root.qwkTimer);
      root.qwkTimer = setTimeout(() => { status.textContent = ""; }, 2500);
    }, () => { status.textContent = data.failed; });
  };
}

const STEP_KEYS = { ArrowRight: "next", PageDown: "next", " ": "next", ArrowLeft: "previous",
  PageUp: "previous" };
// Controls that take these keys themselves (a caret, a slider, a list, a focused button's space).
const OWN_KEYS = "input, textarea, select, [contenteditable], [role=slider], [role=combobox], "
  + "[role=listbox], [role=radiogroup], [role=radio], [role=tablist], [role=tab]";
let stepButtons = null;

function onStepKey(event) {
  const which = STEP_KEYS[event.key];
  if (!stepButtons || !which || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey
      || event.defaultPrevented) return;
  const target = event.target instanceof Element ? event.target : null;
  if (target && (target.closest(OWN_KEYS) || (event.key === " " && target.closest("button, a")))) {
    return;
  }
  const button = document.querySelector(`.st-key-${stepButtons[which]} button`);
  if (!button) return;
  event.preventDefault();  // the page does not scroll: the key turns the step
  if (!button.disabled) button.click();
}

// An empty mark (class `name`) that a kind's document listeners are in place: what a test
// waits for before pressing keys or typing.
function markListening(parentElement, name) {
  if (!parentElement.querySelector(":scope > .qwk-root")) {
    parentElement.insertAdjacentHTML("beforeend",
      `<div class="qwk-root"><span class="${name}" aria-hidden="true"></span></div>`);
  }
}

function listenForStepKeys(data, parentElement) {
  stepButtons = { next: data.next, previous: data.previous };
  markListening(parentElement, "qwk-keys");
  if (!window.qwkStepKeys) {
    window.qwkStepKeys = true;
    document.addEventListener("keydown", onStepKey);
  }
  return () => { stepButtons = null; };
}

// The rating fields' form (kind "hold"): the browser decides when to send it, so that half of a
// pair being typed costs no server run. One listener set for the page, installed once; each
// rerun's data (the field and button keys, the separators, the pauses) replaces the last.
let ratingHold = null;
let holdTimer = null;
let holdDirty = false;  // typed since the form was last sent

function holdInputs() {
  return ratingHold.fields.map((key) => document.querySelector(`.st-key-${key} input`));
}

function isRatingField(target) {
  return Boolean(ratingHold && target instanceof Element
    && holdInputs().some((input) => input === target));
}

// Ratings in a field, split as the parser splits them (qwk_explained.core.parse).
function ratingCount(input) {
  if (!input) return 0;
  let text = input.value.normalize("NFKC");
  for (const bracket of ratingHold.brackets) text = text.split(bracket).join(" ");
  return text.split(ratingHold.split).filter(Boolean).length;
}

function countsAgree() {
  const [actual, predicted] = holdInputs();
  return ratingCount(actual) === ratingCount(predicted);
}

function sendRatings() {
  clearTimeout(holdTimer);
  holdTimer = null;
  if (!ratingHold || !holdDirty) return;  // nothing changed since the last send
  const button = document.querySelector(`.st-key-${ratingHold.submit} button`);
  if (!button || button.disabled) return;
  holdDirty = false;
  button.click();
}

function sendLater(pause) {
  clearTimeout(holdTimer);
  holdTimer = setTimeout(sendRatings, pause);
}

// After typing: the short pause when the two lists are a pair, the longer one while they differ.
function sendAfterTyping() {
  sendLater(countsAgree() ? ratingHold.pause : ratingHold.longPause);
}

function composing(event) {
  return event.isComposing || event.keyCode === 229;
}

function onHoldKey(event) {
  if (event.key !== "Enter" || composing(event) || !isRatingField(event.target)) return;
  if (countsAgree()) sendRatings();
  else sendLater(ratingHold.longPause);
}

function onHoldInput(event) {
  if (!isRatingField(event.target)) return;
  holdDirty = true;
  clearTimeout(holdTimer);
  if (composing(event)) return;  // compositionend schedules the send
  sendAfterTyping();
}

function onHoldCompositionEnd(event) {
  if (isRatingField(event.target) && holdDirty) sendAfterTyping();
}

function onHoldFocusOut(event) {
  if (isRatingField(event.target) && !isRatingField(event.relatedTarget)) sendRatings();
}

function holdRatings(data, parentElement) {
  ratingHold = { ...data, split: new RegExp(data.separators, "u") };
  markListening(parentElement, "qwk-hold");
  if (!window.qwkHoldRatings) {
    window.qwkHoldRatings = true;
    document.addEventListener("keydown", onHoldKey);
    document.addEventListener("input", onHoldInput);
    document.addEventListener("compositionend", onHoldCompositionEnd);
    document.addEventListener("focusout", onHoldFocusOut);
  }
  // A pending send is kept across a rerun (its next data comes at once); off the page, it finds
  // no hold and does nothing.
  return () => { ratingHold = null; };
}

export default function (component) {
  const { data, parentElement } = component;
  // Only when it differs: every chart of every rerun would write it again, and the language of
  // <html> is inherited by every element of the page (a write can restyle them all).
  if (data && data.lang && document.documentElement.lang !== data.lang) {
    document.documentElement.lang = data.lang;
  }
  if (data && data.kind === "hold") return holdRatings(data, parentElement);
  if (data && data.kind === "keys") return listenForStepKeys(data, parentElement);
  let root = parentElement.querySelector(":scope > .qwk-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "qwk-root";
    parentElement.appendChild(root);
  }
  if (data && data.kind === "copy") drawCopy(component, root);
  else if (data) drawChart(component, root);
  return () => {
    if (root.qwkResize) root.qwkResize.disconnect();
    root.qwkResize = null;
  };
}
