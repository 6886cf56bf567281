// The view of qwk_explained.notebook.explore(): two fields, two menus, and the kernel's HTML.
//
// The kernel parses, computes and writes every word and number (in the chosen language); this
// module only builds the controls, sends what the learner types, and shows what comes back.
// No dependency and no network: anywidget loads this file from the Python package.

const FIELDS = ["actual", "predicted"];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function fillOptions(select, options, current) {
  select.replaceChildren();
  for (const [value, label] of Object.entries(options)) {
    const option = element("option", "", label);
    option.value = value;
    option.selected = value === current;
    select.append(option);
  }
}

function render({ model, el }) {
  const id = `qwk-${Math.random().toString(36).slice(2)}`;
  const root = element("div", "qwk-explorer");
  const hint = element("p", "qwk-hint");
  const inputs = element("div", "qwk-inputs");
  const fields = {};

  for (const name of FIELDS) {
    const label = element("label", `qwk-field qwk-field-${name}`);
    const caption = element("span", "qwk-caption");
    const input = element("textarea", "qwk-ratings");
    input.rows = 2;
    input.spellcheck = false;
    input.name = name;
    input.value = model.get(`${name}_text`);
    const problem = element("p", "qwk-error");
    problem.id = `${id}-${name}-error`;
    problem.setAttribute("role", "alert");
    input.setAttribute("aria-describedby", problem.id);
    input.addEventListener("input", () => {
      model.set(`${name}_text`, input.value);
      model.save_changes();
    });
    label.append(caption, input, problem);
    inputs.append(label);
    fields[name] = { caption, input, problem };
  }

  const settings = element("div", "qwk-settings");
  const menus = {};
  for (const name of ["weights", "lang"]) {
    const label = element("label", `qwk-menu qwk-menu-${name}`);
    const caption = element("span", "qwk-caption");
    const select = element("select");
    select.name = name;
    select.addEventListener("change", () => {
      model.set(name, select.value);
      model.save_changes();
    });
    label.append(caption, select);
    settings.append(label);
    menus[name] = { caption, select };
  }

  const pairProblem = element("p", "qwk-error qwk-error-pair");
  pairProblem.setAttribute("role", "alert");
  const stale = element("p", "qwk-stale");
  const view = element("div", "qwk-view");
  root.append(hint, inputs, settings, pairProblem, stale, view);
  el.append(root);

  function showWords() {
    const words = model.get("_labels");
    root.lang = words.lang || "";
    hint.textContent = words.hint || "";
    fields.actual.caption.textContent = words.actual || "";
    fields.predicted.caption.textContent = words.predicted || "";
    for (const name of FIELDS) fields[name].input.title = words.help || "";
    menus.weights.caption.textContent = words.weights || "";
    menus.lang.caption.textContent = words.language || "";
    fillOptions(menus.weights.select, words.weightings || {}, model.get("weights"));
    fillOptions(menus.lang.select, words.languages || {}, model.get("lang"));
    stale.textContent = model.get("stale") ? words.stale || "" : "";
  }

  function showErrors() {
    const errors = model.get("errors") || {};
    for (const name of FIELDS) {
      fields[name].problem.textContent = errors[name] || "";
      fields[name].input.setAttribute("aria-invalid", errors[name] ? "true" : "false");
    }
    pairProblem.textContent = errors.pair || "";
  }

  function showText(name) {
    // Only a change made in the kernel (ratings set from Python) reaches a field being typed in
    // with a different value; the learner's own text comes back unchanged and is left alone.
    const text = model.get(`${name}_text`);
    if (fields[name].input.value !== text) fields[name].input.value = text;
  }

  function showView() {
    // HTML written by the kernel from escaped sentences, numbers and MathML: no script.
    view.innerHTML = model.get("_view");
  }

  showWords();
  showErrors();
  showView();
  const handlers = [
    ["change:_labels", showWords],
    ["change:stale", showWords],
    ["change:weights", showWords],
    ["change:lang", showWords],
    ["change:errors", showErrors],
    ["change:_view", showView],
    ["change:actual_text", () => showText("actual")],
    ["change:predicted_text", () => showText("predicted")],
  ];
  for (const [event, handler] of handlers) model.on(event, handler);
  return () => {
    for (const [event, handler] of handlers) model.off(event, handler);
  };
}

export default { render };
