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

// load is a thread's messages, {role, content}, oldest first.
export async function load(id) {
  const res = await api(`/v1/threads/${encodeURIComponent(id)}?limit=200`);
  if (!res.ok) throw new Error(await errorMessage(res));
  return (await res.json()).messages || [];
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
