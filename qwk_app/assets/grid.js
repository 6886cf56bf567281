// The browser half of qwk_app/answer_grid.py: a grid of real text fields, one per cell.
//
// Streamlit's data editor (a canvas) needs two taps on a touch screen before the keyboard opens,
// and its toolbar covered cells and text there; a field opens the keyboard on the first tap, on
// every device. data: {grid (the widget key: a new one is a new grid), rows (the texts drawn),
// rowNames, columnNames, columns (the column keys edits are reported under), labels (one
// accessible name per cell, row by row), cells (the texts the server holds now), marks (a mark
// per cell, "" for none), title}.
//
// What was typed is reported as the data editor reports it, relative to the rows drawn:
// state "edited_rows" = {row index: {column key: text}}, every edit since the grid was drawn,
// sent when a field is left or Enter is pressed (not at every keystroke: each report reruns the
// page). While the grid is the same, a rerun never rebuilds the fields, so the one being typed
// in keeps its text, caret and keyboard. Built again (Streamlit mounted it afresh), the fields
// show the server's texts, and those that differ from the rows drawn are the edits so far.
//
// Keys, as in a spreadsheet: Tab and Shift+Tab go along the rows, Enter goes down (Shift+Enter
// up), the arrow keys go to the next field (left from the text's start, right from its end).
// Every text is set with .value or .textContent, never as HTML.

function build(root, data) {
  root.textContent = "";
  const edits = {};
  const table = document.createElement("table");
  table.className = "qwk-cells";
  table.setAttribute("aria-label", data.title);
  const head = table.createTHead().insertRow();
  head.appendChild(document.createElement("td"));
  for (const name of data.columnNames) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    head.appendChild(th);
  }
  const body = table.createTBody();
  data.rowNames.forEach((name, i) => {
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = name;
    row.appendChild(th);
    data.columns.forEach((column, j) => {
      const input = document.createElement("input");
      input.type = "text";
      input.inputMode = "decimal";
      input.autocomplete = "off";
      input.spellcheck = false;
      input.setAttribute("autocorrect", "off");
      input.setAttribute("autocapitalize", "off");
      input.setAttribute("enterkeyhint", "next");
      input.dataset.row = String(i);
      input.dataset.column = column;
      input.value = data.cells[i][j];
      input.qwkSent = input.value;
      if (input.value !== data.rows[i][j]) {
        edits[i] = { ...(edits[i] || {}), [column]: input.value };
      }
      row.insertCell().appendChild(input);
    });
  });
  root.appendChild(table);
  root.qwkEdits = edits;
}

// What changes from run to run without a new grid: the marks, and every name (a language
// switch).
function update(root, data) {
  const fields = [...root.querySelectorAll("input")];
  const marks = data.marks.flat();
  const labels = data.labels.flat();
  fields.forEach((input, k) => {
    input.setAttribute("aria-label", labels[k]);
    const mark = marks[k] || "";
    if ((input.dataset.mark || "") === mark) return;
    let sign = input.parentElement.querySelector(".qwk-mark");
    if (mark) {
      input.dataset.mark = mark;
      if (!sign) {
        sign = document.createElement("span");
        sign.className = "qwk-mark";
        sign.setAttribute("aria-hidden", "true");  // the messages under the grid say it
        input.parentElement.appendChild(sign);
      }
      sign.textContent = mark;
    } else {
      delete input.dataset.mark;
      if (sign) sign.remove();
    }
  });
  const table = root.querySelector("table");
  table.setAttribute("aria-label", data.title);
  const heads = table.querySelectorAll("thead th");
  data.columnNames.forEach((name, j) => { heads[j].textContent = name; });
  const rowHeads = table.querySelectorAll("tbody th");
  data.rowNames.forEach((name, i) => { rowHeads[i].textContent = name; });
}

function send(root, input, setStateValue) {
  if (input.value === input.qwkSent) return;
  input.qwkSent = input.value;
  const edits = root.qwkEdits;
  edits[input.dataset.row] = { ...(edits[input.dataset.row] || {}),
    [input.dataset.column]: input.value };
  setStateValue("edited_rows", { ...edits });
}

function move(root, input, rowStep, columnStep) {
  const fields = [...root.querySelectorAll("input")];
  const width = root.querySelector("tbody tr").querySelectorAll("input").length;
  const k = fields.indexOf(input) + rowStep * width + columnStep;
  if (k < 0 || k >= fields.length) return false;
  fields[k].focus();
  fields[k].select();
  return true;
}

function listen(root, setStateValue) {
  root.onchange = (event) => {
    if (event.target.matches("input")) send(root, event.target, setStateValue);
  };
  root.onkeydown = (event) => {
    const input = event.target;
    if (!input.matches("input") || event.altKey || event.ctrlKey || event.metaKey) return;
    const atStart = input.selectionStart === 0 && input.selectionEnd === 0;
    const atEnd = input.selectionStart === input.value.length
      && input.selectionEnd === input.value.length;
    let moved = false;
    if (event.key === "Enter") {
      send(root, input, setStateValue);
      moved = move(root, input, event.shiftKey ? -1 : 1, 0);
      if (!moved) input.select();
      event.preventDefault();
      return;
    }
    if (event.key === "ArrowDown") moved = move(root, input, 1, 0);
    else if (event.key === "ArrowUp") moved = move(root, input, -1, 0);
    else if (event.key === "ArrowRight" && atEnd) moved = move(root, input, 0, 1);
    else if (event.key === "ArrowLeft" && atStart) moved = move(root, input, 0, -1);
    if (moved) event.preventDefault();
  };
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let root = parentElement.querySelector(":scope > .qwk-root");
  if (!root) {
    root = document.createElement("div");
    root.className = "qwk-root";
    parentElement.appendChild(root);
  }
  if (!data) return undefined;
  if (root.qwkGrid !== data.grid) {
    build(root, data);
    root.qwkGrid = data.grid;
  }
  update(root, data);
  listen(root, setStateValue);
  return undefined;
}
