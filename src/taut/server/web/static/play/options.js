// A game's options as a form, from the plugin's presentation of them (the catalogue's entry):
// its presets, one field per option in plain words and in the plugin's groups, technical ones
// under "More", and options that do not apply to the current choices hidden and not sent.
// The new-game form and the tournament form both build theirs here.

const $ = (id) => document.getElementById(id);

function human(name) {
  return name.replace(/[_-]+/g, " ");
}

/** A value as the form shows it. */
export function shown(value) {
  if (value === null) return "none";
  if (value === true) return "on";
  if (value === false) return "off";
  return String(value);
}

/** An option's label: the plugin's, or its name in words. */
export function labelOf(option) {
  return option.label || human(option.name);
}

/**
 * The options of one game (`entry`, from the catalogue) drawn into `boxes`:
 * `options` and `advanced` (where the plain and technical fields go), `presetsBox` and
 * `presets` (the presets' fieldset and their list), `more` (the folded "More" box) and
 * `error` (where a problem with a chosen file is said). `onChange` is called after any change.
 */
export class OptionsForm {
  constructor(entry, boxes, onChange = () => {}) {
    this.entry = entry;
    this.boxes = boxes;
    this.onChange = onChange;
    this.byName = new Map(entry.options.map((o) => [o.name, o]));
  }

  /** Draw the fields and presets (replacing any drawn before). */
  build() {
    this.boxes.options.replaceChildren();
    this.boxes.advanced.replaceChildren();
    const plain = new Map();
    const more = new Map();
    for (const name of this.entry.groups || []) {
      plain.set(name, this.groupBox(name, this.boxes.options));
      more.set(name, this.groupBox(name, this.boxes.advanced));
    }
    for (const option of this.entry.options) {
      const boxes = option.advanced ? more : plain;
      const group = option.group || "Options";
      const holder = option.advanced ? this.boxes.advanced : this.boxes.options;
      if (!boxes.has(group)) boxes.set(group, this.groupBox(group, holder));
      boxes.get(group).append(this.field(option));
    }
    this.buildPresets();
    this.follow();
  }

  groupBox(name, holder) {
    const box = document.createElement("fieldset");
    box.className = "option-group";
    box.dataset.group = name;
    const legend = document.createElement("legend");
    legend.textContent = name;
    box.append(legend);
    holder.append(box);
    return box;
  }

  changed() {
    this.follow();
    this.onChange();
  }

  // One option's control: a switch, a list of choices, a number or a text.
  control(option) {
    let input;
    if (option.kind === "bool" && !option.nullable) {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = option.default === true;
    } else if (option.choices.length || option.kind === "bool") {
      input = document.createElement("select");
      const values = option.kind === "bool" ? [true, false] : option.choices;
      for (const value of option.nullable ? [null, ...values] : values) {
        const el = document.createElement("option");
        el.value = JSON.stringify(value);
        el.textContent = shown(value) + (value === option.default ? " (default)" : "");
        el.selected = value === option.default;
        input.append(el);
      }
    } else {
      input = document.createElement("input");
      if (option.kind === "int" || option.kind === "float") {
        input.type = "number";
        input.step = option.kind === "int" ? "1" : "any";
        input.inputMode = option.kind === "int" ? "numeric" : "decimal";
        if (option.minimum !== null) input.min = option.minimum;
        if (option.maximum !== null) input.max = option.maximum;
      } else {
        input.type = "text";
        input.spellcheck = false;
      }
      input.value = option.default === null ? "" : String(option.default);
      if (option.nullable) input.placeholder = "none";
    }
    input.id = `option-${option.name}`;
    input.name = `option:${option.name}`;
    input.dataset.option = option.name;
    input.addEventListener("change", () => this.changed());
    input.addEventListener("input", () => { input.removeAttribute("aria-invalid"); });
    return input;
  }

  field(option) {
    const box = document.createElement("div");
    box.className = "field";
    box.id = `field-${option.name}`;
    const input = this.control(option);
    const label = document.createElement("label");
    label.htmlFor = input.id;
    label.textContent = labelOf(option);
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.id = `${input.id}-hint`;
    const doc = (option.help || option.doc).replace(/\.$/, "");
    const typed = input.tagName === "INPUT" && input.type !== "checkbox";
    hint.textContent = typed ? `${doc}. Allowed: ${option.allowed}; default: ${shown(option.default)}.` : `${doc}.`;
    input.setAttribute("aria-describedby", hint.id);
    if (input.type === "checkbox") {
      box.classList.add("check");
      label.prepend(input);
      box.append(label, hint);
    } else {
      box.append(label, input, hint);
    }
    if (option.upload && input.tagName === "SELECT") box.append(...this.uploadField(option, input));
    return box;
  }

  // An option that also takes a file of the player's own (a tile set): the file is read here
  // and sent as its text, as one more choice of the list; the server checks it.
  uploadField(option, select) {
    const file = document.createElement("input");
    file.type = "file";
    file.accept = option.upload;
    file.id = `${select.id}-file`;
    const label = document.createElement("label");
    label.htmlFor = file.id;
    label.textContent = `Or your own ${labelOf(option).toLowerCase()} file (${option.upload})`;
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.id = `${file.id}-hint`;
    hint.textContent = "Pictures must be inside the file: taut tiles FILE --bundle OUT writes one.";
    file.setAttribute("aria-describedby", hint.id);
    file.addEventListener("change", async () => {
      const chosen = file.files[0];
      if (!chosen) return;
      if (chosen.size > 2000000) {
        this.boxes.error.textContent = `${chosen.name} is larger than 2 MB.`;
        return;
      }
      let mine = select.querySelector("option[data-upload]");
      if (!mine) {
        mine = document.createElement("option");
        mine.dataset.upload = "true";
        select.append(mine);
      }
      mine.value = JSON.stringify(await chosen.text());
      mine.textContent = `your file: ${chosen.name}`;
      mine.selected = true;
      this.changed();
    });
    return [label, file, hint];
  }

  /**
   * The options as the server reads them (`{options}`), or the first problem found
   * (`{problem, input}`, its field marked). An option that does not apply to the current
   * choices is not sent: the server's default holds.
   */
  read() {
    const out = {};
    const applying = this.applies();
    for (const option of this.entry.options) {
      const input = $(`option-${option.name}`);
      input.removeAttribute("aria-invalid");
      if (!applying.has(option.name)) continue;
      let value;
      const text = input.value.trim();
      if (input.type === "checkbox") value = input.checked;
      else if (input.tagName === "SELECT") value = JSON.parse(input.value);
      else if (text === "") value = option.nullable ? null : (option.kind === "str" ? "" : undefined);
      else if (option.kind === "int" || option.kind === "float") {
        const pattern = option.kind === "int" ? /^[+-]?\d{1,18}$/ : /^[+-]?(\d{1,17}(\.\d{0,17})?|\.\d{1,17})$/;
        value = pattern.test(text) ? Number(text) : undefined;
        const low = option.minimum !== null && value < option.minimum;
        const high = option.maximum !== null && value > option.maximum;
        if (low || high) value = undefined;
      } else value = input.value;
      if (value === undefined) {
        input.setAttribute("aria-invalid", "true");
        return { problem: `${labelOf(option)}: allowed values are ${option.allowed}.`, input };
      }
      out[option.name] = value;
    }
    return { options: out };
  }

  // An option's current value in the form (a text or number field as typed).
  currentValue(option) {
    const input = $(`option-${option.name}`);
    if (input.type === "checkbox") return input.checked;
    if (input.tagName === "SELECT") return JSON.parse(input.value);
    const text = input.value.trim();
    if (text === "") return option.nullable ? null : "";
    return option.kind === "int" || option.kind === "float" ? Number(text) : input.value;
  }

  /** Set an option's field to `value`. */
  setValue(option, value) {
    const input = $(`option-${option.name}`);
    if (input.type === "checkbox") input.checked = value === true;
    else if (input.tagName === "SELECT") input.value = JSON.stringify(value);
    else input.value = value === null ? "" : String(value);
    input.removeAttribute("aria-invalid");
  }

  // The options that apply now: each of an option's conditions names an option that applies
  // and holds one of the listed values.
  applies() {
    const out = new Set();
    const visiting = new Set();
    const check = (option) => {
      if (out.has(option.name)) return true;
      if (visiting.has(option.name)) return false;
      visiting.add(option.name);
      const ok = Object.entries(option.shown_when || {}).every(([other, values]) => {
        const found = this.byName.get(other);
        return found && check(found) && values.some((v) => v === this.currentValue(found));
      });
      visiting.delete(option.name);
      if (ok) out.add(option.name);
      return ok;
    };
    for (const option of this.entry.options) check(option);
    return out;
  }

  buildPresets() {
    const presets = this.entry.presets || [];
    this.boxes.presetsBox.hidden = presets.length === 0;
    this.boxes.presets.replaceChildren(...presets.map((preset, i) => {
      const row = document.createElement("div");
      row.className = "field check preset";
      const radio = Object.assign(document.createElement("input"), {
        type: "radio", name: "preset", id: `preset-${i}`, value: String(i),
      });
      radio.addEventListener("change", () => { if (radio.checked) this.applyPreset(preset); });
      const label = document.createElement("label");
      label.htmlFor = radio.id;
      label.append(radio, ` ${preset.name}`);
      const hint = Object.assign(document.createElement("p"), {
        className: "hint", id: `${radio.id}-hint`, textContent: preset.description,
      });
      radio.setAttribute("aria-describedby", hint.id);
      row.append(label, hint);
      return row;
    }));
  }

  /**
   * Set every option `preset` names; the others go back to their defaults, except the
   * technical ones (under "More"), which keep what the player set.
   */
  applyPreset(preset) {
    for (const option of this.entry.options) {
      if (option.advanced && !(option.name in preset.values)) continue;
      const upload = $(`option-${option.name}`).querySelector?.("option[data-upload]");
      if (upload) upload.remove();
      const file = $(`option-${option.name}-file`);
      if (file) file.value = "";
      this.setValue(option, option.name in preset.values ? preset.values[option.name] : option.default);
    }
    this.changed();
  }

  /**
   * Hide what does not apply (and groups left empty), and mark the preset the options now
   * match (none: the player's own choice).
   */
  follow() {
    const applying = this.applies();
    for (const option of this.entry.options) $(`field-${option.name}`).hidden = !applying.has(option.name);
    for (const holder of [this.boxes.options, this.boxes.advanced]) {
      for (const box of holder.querySelectorAll(".option-group")) {
        box.hidden = ![...box.querySelectorAll(".field")].some((f) => !f.hidden);
      }
    }
    this.boxes.more.hidden = ![...this.boxes.advanced.querySelectorAll(".field")].some((f) => !f.hidden);
    let matched = false;
    (this.entry.presets || []).forEach((preset, i) => {
      const same = this.entry.options.every((option) => {
        const wanted = option.name in preset.values ? preset.values[option.name] : option.default;
        if (!applying.has(option.name) || (option.advanced && !(option.name in preset.values))) return true;
        return this.currentValue(option) === wanted;
      });
      $(`preset-${i}`).checked = same && !matched;
      matched = matched || same;
    });
  }
}
