// The page's labels, from the server's ru/en catalogue (/ui/labels.json).
// Every text the page shows that is not the conversation comes from here.

const languageKey = "sgrgraph.lang";

let catalogue = {};
let current = "en";

// load fetches the catalogue and settles the language: the one chosen
// before in this browser, else the first of the browser's languages the
// catalogue has (Russian when the browser asks for it), else English.
export async function load() {
  const res = await fetch("/ui/labels.json");
  if (!res.ok) throw new Error("labels: " + res.status);
  catalogue = await res.json();
  const wanted = [localStorage.getItem(languageKey) || "", ...(navigator.languages || [navigator.language || ""])];
  current = wanted.map((l) => l.slice(0, 2).toLowerCase()).find((l) => catalogue[l]) || "en";
  return current;
}

export function language() {
  return current;
}

// setLanguage switches the labels and remembers the choice.
export function setLanguage(lang) {
  if (!catalogue[lang]) return;
  current = lang;
  localStorage.setItem(languageKey, lang);
}

// t is the label key in the current language with {name} filled from vars.
export function t(key, vars = {}) {
  const text = (catalogue[current] || {})[key] ?? (catalogue.en || {})[key] ?? key;
  return text.replace(/\{([a-z_]+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

// apply sets every [data-label] element's text, and the few attributes
// that carry labels.
export function apply(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-label]")) el.textContent = t(el.dataset.label);
  const input = document.getElementById("input");
  if (input) input.placeholder = t("input_placeholder");
  document.title = t("app_title");
}
