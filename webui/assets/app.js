// The web chat: wires the page to the API. A conversation is a session
// (session_id) the server keeps as a thread of the tab's API key.

import { APIError, onKeyNeeded, streamTurn } from "./api.js";
import * as i18n from "./i18n.js";
import * as threads from "./threads.js";
import { Turn } from "./turn.js";

const $ = (id) => document.getElementById(id);

const page = {
  session: newSession(),
  turns: [],
  threads: [],
  running: null, // the AbortController of the turn in flight
};

// newSession is a fresh session id the server accepts (letters, digits, '-').
function newSession() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function send() {
  const text = $("input").value.trim();
  if (!text || page.running) return;
  $("input").value = "";
  const turn = new Turn($("messages"), text);
  page.turns.push(turn);
  scrollDown(true);
  const ctl = new AbortController();
  setRunning(ctl);
  try {
    await streamTurn({ message: text, session_id: page.session, stream: true, include_query_traces: true }, ctl.signal, (name, data) => {
      const near = nearBottom();
      if (name === "result") turn.finish(data);
      else if (name === "interrupted") {
        turn.root.dataset.turn = String(data.turn);
        turn.waitForReview(data.pending_review);
        awaitReview(turn, page.session);
      }
      else if (name === "error") turn.fail(new APIError(data?.error?.message || "error", 0, data?.error?.type, data?.error?.code));
      else turn.event(data);
      scrollDown(near);
    });
    if (!turn.settled) turn.fail(new APIError("the stream ended before the result", 0, "server_error"));
  } catch (err) {
    if (err.name === "AbortError") turn.stop();
    else turn.fail(err);
  } finally {
    // A turn that failed gave no answer: what was asked goes back into the
    // composer, unless something else was typed meanwhile, to send again.
    if (turn.failed && !$("input").value) $("input").value = text;
    setRunning(null);
    refreshThreads();
    $("input").focus();
  }
}

// awaitReview asks the thread, every second or two, whether the person
// has answered the draft the turn waits on, and then shows the outcome:
// no reload. It stops when another conversation is opened.
async function awaitReview(turn, session) {
  for (let wait = 1000; page.session === session && page.turns.includes(turn); wait = Math.min(wait * 1.5, 3000)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (page.session !== session) return;
    try {
      const last = ((await threads.loadPage(session, 1)).turns || [])[0];
      if (last && String(last.turn) === turn.root.dataset.turn && last.status !== "interrupted") {
        const near = nearBottom();
        turn.reviewed(last);
        scrollDown(near);
        return;
      }
    } catch { /* the server is away for a moment: ask again */ }
  }
}

function setRunning(ctl) {
  page.running = ctl;
  $("send").disabled = Boolean(ctl);
  // The focus stays in the composer: moved to Stop, the Enter that sent
  // the question would land on Stop and cancel the turn at once.
  $("stop").hidden = !ctl;
}

function nearBottom() {
  const m = $("messages");
  return m.scrollHeight - m.scrollTop - m.clientHeight < 80;
}

function scrollDown(near) {
  if (near) $("messages").scrollTop = $("messages").scrollHeight;
}

// refreshThreads reads the list again; the list is busy until it is drawn.
async function refreshThreads() {
  $("threads").setAttribute("aria-busy", "true");
  try {
    page.threads = await threads.list().catch(() => []);
    threads.draw($("threads"), page.threads, page.session, openThread);
  } finally {
    $("threads").setAttribute("aria-busy", "false");
  }
}

function newChat() {
  page.running?.abort();
  page.session = newSession();
  page.turns = [];
  $("messages").replaceChildren();
  threads.draw($("threads"), page.threads, page.session, openThread);
  closeSidebar();
  $("input").focus();
}

// openThread shows a kept conversation; the next question continues it.
async function openThread(id) {
  page.running?.abort();
  page.session = id;
  page.turns = [];
  $("messages").replaceChildren();
  threads.draw($("threads"), page.threads, page.session, openThread);
  closeSidebar();
  try {
    for (const rec of await threads.load(id)) {
      const turn = new Turn($("messages"), rec.question, { earlier: true });
      page.turns.push(turn);
      turn.showRecord(rec);
      if (rec.status === "interrupted") awaitReview(turn, id);
    }
  } catch (err) {
    $("messages").append(Object.assign(document.createElement("p"), { className: "status error", textContent: i18n.t("error_thread", { message: err.message }) }));
  }
  scrollDown(true);
  $("input").focus();
}

function closeSidebar() {
  $("sidebar").classList.remove("open");
  $("threads-toggle").setAttribute("aria-expanded", "false");
}

// askKey shows the key dialog and resolves to what is typed, or null.
function askKey(rejected) {
  const dialog = $("key-dialog");
  $("key-rejected").hidden = !rejected;
  $("key-input").value = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      const key = dialog.returnValue === "cancel" ? "" : $("key-input").value.trim();
      resolve(key || null);
    }, { once: true });
    dialog.returnValue = "";
    if (!dialog.open) dialog.showModal();
    $("key-input").focus();
  });
}

function relabel() {
  i18n.apply();
  for (const turn of page.turns) turn.relabel();
  threads.draw($("threads"), page.threads, page.session, openThread);
}

function wire() {
  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    send();
  });
  // Enter sends, Shift+Enter is a new line, Escape stops the turn; Enter
  // that ends an input method's composition (Japanese, Chinese…) only ends
  // the composition.
  $("input").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
    } else if (e.key === "Escape" && page.running) {
      page.running.abort();
    }
  });
  $("stop").addEventListener("click", () => page.running?.abort());
  $("new-chat").addEventListener("click", newChat);
  $("lang").addEventListener("change", (e) => {
    i18n.setLanguage(e.target.value);
    relabel();
  });
  $("threads-toggle").addEventListener("click", () => {
    const open = $("sidebar").classList.toggle("open");
    $("threads-toggle").setAttribute("aria-expanded", String(open));
  });
  $("key-dialog").addEventListener("cancel", () => { $("key-dialog").returnValue = "cancel"; });
  // A citation [n] opens the articles table and shows row n.
  $("messages").addEventListener("click", (e) => {
    const link = e.target.closest("a.cite");
    if (!link) return;
    const row = document.getElementById(link.getAttribute("href").slice(1));
    if (!row) return;
    e.preventDefault();
    row.closest("details").open = true;
    row.scrollIntoView({ block: "nearest" });
    row.focus();
  });
  onKeyNeeded(askKey);
}

async function boot() {
  wire();
  $("lang").value = await i18n.load();
  relabel();
  document.body.dataset.ready = "true";
  $("input").focus();
  await refreshThreads();
}

boot();
