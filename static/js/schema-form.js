/* Arbiter: build a form from a rules question's JSON Schema, send the payload,
 * show the ruling without reloading the page.
 *
 * Each schema node becomes a "control": {el, get(), set(value)}. get() returns
 * the JSON value (or undefined to leave an optional key out).
 */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/); English without it.
  const gettext = window.gettext || ((text) => text);
  const interpolate = window.interpolate ||
    ((format, values) => format.replace(/%\((\w+)\)s/g, (whole, key) => String(values[key])));
  /* gettext(format) with %(field)s filled in: "Empty: %(field)s". */
  const withField = (format, field) => interpolate(format, { field: field }, true);

  const catalogue = JSON.parse(document.getElementById("rules-catalogue").textContent);
  const gameSelect = document.getElementById("rule-game");
  const questionSelect = document.getElementById("rule-question");
  const summary = document.getElementById("question-summary");
  const fields = document.getElementById("payload-fields");
  const form = document.getElementById("ruling-form");
  const jsonView = document.getElementById("payload-json");
  const result = document.getElementById("ruling");
  let root = null;

  function h(tag, attrs, children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children || []) if (child) el.append(child);
    return el;
  }

  function typesOf(schema) {
    if (schema.enum) return ["enum"];
    const alternatives = schema.anyOf || schema.oneOf;
    if (alternatives) return alternatives.flatMap(typesOf);
    if (Array.isArray(schema.type)) return schema.type;
    return [schema.type || (schema.properties ? "object" : "any")];
  }

  /* The non-null branch of a nullable schema ({"type": ["integer", "null"]} or anyOf). */
  function withoutNull(schema) {
    const alternatives = schema.anyOf || schema.oneOf;
    if (alternatives) {
      const rest = alternatives.filter((s) => s.type !== "null");
      if (rest.length === 1) return { title: schema.title, description: schema.description, ...rest[0] };
    }
    if (Array.isArray(schema.type)) {
      const rest = schema.type.filter((t) => t !== "null");
      return { ...schema, type: rest.length === 1 ? rest[0] : rest };
    }
    return schema;
  }

  function labelFor(schema, name) {
    return schema.title || name;
  }

  function build(schema, path, name) {
    const types = typesOf(schema);
    if (types.includes("null") && types.length > 1) return nullable(schema, path, name);
    const type = types[0];
    if (type === "enum") return enumControl(schema, path, name);
    if (type === "integer" || type === "number") return numberControl(schema, path, name, type);
    if (type === "boolean") return booleanControl(schema, path, name);
    if (type === "string") return stringControl(schema, path, name);
    if (type === "array" && schema.items && typeof schema.items === "object") return arrayControl(schema, path, name);
    if (type === "object" && schema.properties) return objectControl(schema, path, name);
    return jsonControl(schema, path, name);
  }

  function field(schema, path, name, input) {
    return h("label", { class: "schema-field", "data-path": path }, [
      h("span", { class: "field-title", text: labelFor(schema, name) }),
      input,
      schema.description ? h("small", { class: "muted", text: schema.description }) : null,
    ]);
  }

  function numberControl(schema, path, name, type) {
    const small = schema.maximum !== undefined && schema.maximum <= 999;
    const input = h("input", {
      type: "number", name: path, step: type === "integer" ? 1 : "any",
      min: schema.minimum, max: schema.maximum, class: small ? "die-input" : null,
      "aria-label": labelFor(schema, name), inputmode: "numeric",
    });
    return {
      el: small ? input : field(schema, path, name, input),
      bare: small,
      get: () => (input.value === "" ? undefined : Number(input.value)),
      set: (v) => { input.value = v === undefined || v === null ? "" : v; },
    };
  }

  function enumControl(schema, path, name) {
    const select = h("select", { name: path, "aria-label": labelFor(schema, name) },
      schema.enum.map((v) => h("option", { value: JSON.stringify(v), text: v === null ? "—" : String(v) })));
    return {
      el: field(schema, path, name, select),
      get: () => JSON.parse(select.value),
      set: (v) => { if (v !== undefined) select.value = JSON.stringify(v); },
    };
  }

  function booleanControl(schema, path, name) {
    const box = h("input", { type: "checkbox", role: "switch", name: path });
    const el = h("label", { class: "schema-field schema-bool", "data-path": path }, [
      box, " ", h("span", { text: labelFor(schema, name) }),
      schema.description ? h("small", { class: "muted", text: schema.description }) : null,
    ]);
    return { el, get: () => box.checked, set: (v) => { box.checked = Boolean(v); } };
  }

  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const SUITS = [["H", "♥"], ["D", "♦"], ["S", "♠"], ["C", "♣"]];

  /* Superjack cards: a rank and a suit, written rank-then-suit ("10C", "QH"). */
  function cardControl(schema, path, name) {
    // Translators: a playing card's rank (2 … 10, J, Q, K, A); field is the card's name.
    const rank = h("select", { "aria-label": withField(gettext("%(field)s rank"), labelFor(schema, name)), name: path + ".rank" },
      // Translators: the empty choice of a playing card's rank.
      [h("option", { value: "", text: gettext("rank") }), ...RANKS.map((r) => h("option", { value: r, text: r }))]);
    // Translators: a playing card's suit (hearts, diamonds, spades, clubs); field is the card's name.
    const suit = h("select", { "aria-label": withField(gettext("%(field)s suit"), labelFor(schema, name)), name: path + ".suit" },
      // Translators: the empty choice of a playing card's suit.
      [h("option", { value: "", text: gettext("suit") }),
        ...SUITS.map(([s, symbol]) => h("option", { value: s, text: symbol + " " + s }))]);
    const el = h("span", { class: "card-picker", "data-path": path }, [rank, suit]);
    const paint = () => { el.dataset.red = suit.value === "H" || suit.value === "D"; };
    suit.addEventListener("change", paint);
    return {
      el,
      bare: true,
      get: () => (rank.value && suit.value ? rank.value + suit.value : undefined),
      set: (v) => {
        const m = typeof v === "string" ? v.toUpperCase().match(/^(10|[2-9JQKA])([HDSC])$/) : null;
        rank.value = m ? m[1] : "";
        suit.value = m ? m[2] : "";
        paint();
      },
    };
  }

  function stringControl(schema, path, name) {
    if (schema["x-widget"] === "card") return cardControl(schema, path, name);
    const compact = Boolean(schema.maxLength && schema.maxLength <= 8);
    const input = h("input", { type: "text", name: path, pattern: schema.pattern, maxlength: schema.maxLength,
      "aria-label": labelFor(schema, name), class: compact ? "code-input" : null, autocapitalize: "characters" });
    const el = compact ? input : field(schema, path, name, input);
    if (schema["x-options"]) {
      const listId = "options-" + path.replace(/[^a-z0-9]/gi, "-");
      input.setAttribute("list", listId);
      const list = h("datalist", { id: listId }, schema["x-options"].map((v) => h("option", { value: v })));
      if (compact) document.body.append(list); else el.append(list);
    }
    return {
      el,
      bare: compact,
      get: () => (input.value === "" ? undefined : input.value),
      set: (v) => { input.value = v === undefined || v === null ? "" : v; },
    };
  }

  function nullable(schema, path, name) {
    const inner = build(withoutNull(schema), path, name);
    // Translators: a checkbox that leaves the field empty (null); field is its name.
    const box = h("input", { type: "checkbox", "aria-label": withField(gettext("Empty: %(field)s"), labelFor(schema, name)) });
    const wrap = h("div", { class: "nullable", "data-path": path }, [
      // Translators: beside a checkbox that leaves the field after it empty (null).
      h("label", { class: "null-toggle" }, [box, " " + gettext("empty")]), inner.el,
    ]);
    const sync = () => { inner.el.hidden = box.checked; };
    box.addEventListener("change", sync);
    return {
      el: wrap,
      get: () => (box.checked ? null : inner.get()),
      set: (v) => { box.checked = v === null; if (v !== null && v !== undefined) inner.set(v); sync(); },
    };
  }

  function arrayControl(schema, path, name) {
    const min = schema.minItems || 0;
    const max = schema.maxItems === undefined ? 50 : schema.maxItems;
    const fixed = min === max;
    const itemTypes = typesOf(schema.items);
    const slots = fixed && (itemTypes.includes("object") || Boolean(schema.items.properties));
    const list = h("div", { class: slots ? "array-items slot-row" : "array-items" });
    const items = [];
    const addButton = h("button", { type: "button", class: "secondary outline small-button", text: gettext("+ add") });

    function refresh() {
      addButton.hidden = fixed || items.length >= max;
      items.forEach((item, i) => {
        if (item.remove) item.remove.hidden = fixed || items.length <= min;
        item.wrap.dataset.path = path + "[" + i + "]";
      });
    }
    function add(value) {
      const i = items.length;
      const control = build(schema.items, path + "[" + i + "]", labelFor(schema.items, gettext("item")) + " " + (i + 1));
      const item = { control };
      item.remove = h("button", { type: "button", class: "secondary outline small-button", text: "×",
        "aria-label": gettext("Remove"), onclick: () => {
          items.splice(items.indexOf(item), 1); item.wrap.remove(); refresh(); updateJson();
        } });
      item.wrap = h("div", { class: control.bare ? "array-item inline-item" : "array-item" }, [control.el, item.remove]);
      if (value !== undefined) control.set(value);
      items.push(item);
      list.append(item.wrap);
      refresh();
    }
    addButton.addEventListener("click", () => { add(); updateJson(); });
    const el = h("fieldset", { class: "schema-array", "data-path": path }, [
      h("legend", { text: labelFor(schema, name) }),
      schema.description ? h("small", { class: "muted", text: schema.description }) : null,
      list, addButton,
    ]);
    return {
      el,
      get: () => items.map((it) => it.control.get()).map((v) => (v === undefined ? null : v)),
      set: (values) => {
        items.splice(0).forEach((it) => it.wrap.remove());
        (values || []).forEach((v) => add(v));
        while (items.length < min) add();
        refresh();
      },
    };
  }

  function objectControl(schema, path, name) {
    const required = new Set(schema.required || []);
    const children = {};
    const body = [];
    for (const [key, sub] of Object.entries(schema.properties)) {
      const childPath = path ? path + "." + key : key;
      const control = build(sub, childPath, key);
      if (control.bare) control.el = field(sub, childPath, key, control.el);  // label it
      if (!required.has(key) && !["integer", "number", "string", "enum"].includes(typesOf(sub)[0])) {
        const label = labelFor(sub, key);
        // Translators: a checkbox that sends an optional field; field is its name.
        control.optional = h("input", { type: "checkbox", "aria-label": withField(gettext("Include %(field)s"), label) });
        // Translators: beside a checkbox that sends an optional field; field is its name.
        const toggle = h("label", { class: "optional-toggle" }, [control.optional, " " + withField(gettext("include %(field)s"), label)]);
        control.optional.addEventListener("change", () => { control.el.hidden = !control.optional.checked; });
        body.push(toggle);
        control.el.hidden = true;
      }
      children[key] = control;
      body.push(control.el);
    }
    const el = path
      ? h("fieldset", { class: "schema-object", "data-path": path }, [h("legend", { text: labelFor(schema, name) }), ...body])
      : h("div", { class: "schema-root" }, body);
    return {
      el,
      get: () => {
        const out = {};
        for (const [key, control] of Object.entries(children)) {
          if (control.optional && !control.optional.checked) continue;
          const value = control.get();
          if (value !== undefined) out[key] = value;
        }
        return out;
      },
      set: (value) => {
        for (const [key, control] of Object.entries(children)) {
          const present = value && Object.prototype.hasOwnProperty.call(value, key);
          if (control.optional) {
            control.optional.checked = Boolean(present);
            control.el.hidden = !present;
          }
          control.set(present ? value[key] : undefined);
        }
      },
    };
  }

  function jsonControl(schema, path, name) {
    const area = h("textarea", { name: path, rows: 3, class: "json-input", spellcheck: "false" });
    return {
      el: field(schema, path, name + " (JSON)", area),
      get: () => {
        if (area.value.trim() === "") return undefined;
        try { return JSON.parse(area.value); } catch (e) { return area.value; }
      },
      set: (v) => { area.value = v === undefined ? "" : JSON.stringify(v); },
    };
  }

  function currentQuestion() {
    const game = catalogue.find((g) => g.game === gameSelect.value);
    return game && game.questions.find((q) => q.question === questionSelect.value);
  }

  function fillQuestions() {
    const game = catalogue.find((g) => g.game === gameSelect.value);
    questionSelect.replaceChildren(...game.questions.map((q) =>
      h("option", { value: q.question, text: q.title + " (" + q.question + ")" })));
    showForm();
  }

  function showForm() {
    const question = currentQuestion();
    if (!question) return;
    summary.textContent = question.summary;
    root = build(question.schema, "", "payload");
    root.set(question.example);
    fields.replaceChildren(root.el);
    result.replaceChildren();
    updateJson();
    const params = new URLSearchParams({ game: gameSelect.value, question: questionSelect.value });
    if (attachUrl) params.set("call", attachUrl);
    history.replaceState(null, "", "?" + params.toString());
  }

  function updateJson() {
    if (root) jsonView.textContent = JSON.stringify(root.get(), null, 1);
  }

  function markErrors() {
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    result.querySelectorAll("[data-field]").forEach((item) => {
      const target = form.querySelector('[data-path="' + CSS.escape(item.dataset.field) + '"]');
      if (!target) return;
      const input = target.matches("input,select,textarea") ? target : target.querySelector("input,select,textarea");
      if (input) input.setAttribute("aria-invalid", "true");
    });
  }

  async function ask(event) {
    event.preventDefault();
    const payload = root.get();
    jsonView.textContent = JSON.stringify(payload, null, 1);
    const url = form.dataset.resultUrl + encodeURIComponent(gameSelect.value) + "/" +
      encodeURIComponent(questionSelect.value) + "/";
    const token = document.querySelector("[name=csrfmiddlewaretoken]") ||
      { value: JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] };
    result.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token.value },
        body: JSON.stringify(payload),
      });
      result.innerHTML = await response.text();
      markErrors();
      offerAttach(response.ok ? payload : null);
    } catch (e) {
      result.textContent = gettext("Could not reach the server: check the connection and try again.");
    } finally {
      result.removeAttribute("aria-busy");
    }
  }

  /* Opened from a judge call (?call=<url>): the ruling can be kept with that call. */
  const attachUrl = new URLSearchParams(location.search).get("call");
  const attachBox = document.getElementById("attach");
  let lastRuling = null;
  function offerAttach(payload) {
    if (!attachUrl || !attachUrl.startsWith("/events/")) return;
    lastRuling = payload && { game: gameSelect.value, question: questionSelect.value, payload: payload };
    attachBox.hidden = !lastRuling;
    document.getElementById("attach-result").replaceChildren();
  }
  document.getElementById("attach-button").addEventListener("click", async function () {
    const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    const response = await fetch(attachUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify(lastRuling),
    });
    document.getElementById("attach-result").innerHTML = await response.text();
  });

  gameSelect.addEventListener("change", fillQuestions);
  questionSelect.addEventListener("change", showForm);
  fields.addEventListener("input", updateJson);
  fields.addEventListener("change", updateJson);
  form.addEventListener("submit", ask);

  const params = new URLSearchParams(location.search);
  if (params.get("game")) gameSelect.value = params.get("game");
  fillQuestions();
  if (params.get("question")) { questionSelect.value = params.get("question"); showForm(); }
})();
