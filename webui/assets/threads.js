// The user's conversations: GET /v1/threads lists the key's sessions,
// newest first, titled by their first question; GET /v1/threads/{id}
// gives one back to continue it.

import { api, errorMessage } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

// list is the key's threads; none when the server keeps no store to list.
export async function list() {
  const res = await api("/v1/threads?limit=50");
  if (!res.ok) return [];
  return (await res.json()).data || [];
}

// load is a thread's turns as they were shown (question, UI messages,
// sources, verdict, review, status), oldest first: every page of them.
export async function load(id) {
  const turns = [];
  for (let cursor = "", pages = 0; pages < 50; pages++) {
    const page = await loadPage(id, 200, cursor);
    turns.unshift(...(page.turns || []));
    if (!page.has_more) break;
    cursor = page.cursor;
  }
  return turns;
}

// loadPage is one page of a thread: the last limit turns before cursor.
export async function loadPage(id, limit, cursor = "") {
  const q = `limit=${limit}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
  const res = await api(`/v1/threads/${encodeURIComponent(id)}?${q}`);
  if (!res.ok) throw new Error(await errorMessage(res));
  return res.json();
}

// draw fills the list; the current thread is marked for assistive
// technology as well as by its look.
export function draw(ul, threads, current, open) {
  if (threads.length === 0) {
    ul.replaceChildren(el("li", { class: "empty" }, t("threads_empty")));
    return;
  }
  ul.replaceChildren(...threads.map((th) => {
    const button = el("button", { type: "button", "data-thread": th.id, "aria-current": th.id === current ? "true" : false },
      th.title || t("threads_untitled"));
    button.addEventListener("click", () => open(th.id));
    return el("li", {}, button);
  }));
}
