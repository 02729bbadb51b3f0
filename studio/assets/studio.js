// The studio page: the graph, a thread's checkpoints and the runs it
// starts, over /studio/api. Every text from a state goes on the page as
// text (textContent), never as markup.

const keyName = "sgrgraph.key";
const $ = (id) => document.getElementById(id);

const page = { graph: null, thread: "", checkpoints: [], selected: null, running: false };

// api calls the studio's API with the tab's key; a 401 shows the key form
// and waits for a key.
async function api(path, init = {}) {
  for (;;) {
    const key = sessionStorage.getItem(keyName);
    const headers = new Headers(init.headers || {});
    if (key) headers.set("Authorization", "Bearer " + key);
    const res = await fetch("/studio/api" + path, { ...init, headers });
    if (res.status !== 401) return res;
    const next = await askKey();
    if (!next) return res;
    sessionStorage.setItem(keyName, next);
  }
}

function askKey() {
  const form = $("key-form");
  form.hidden = false;
  $("key").focus();
  return new Promise((resolve) => {
    form.onsubmit = (e) => {
      e.preventDefault();
      form.hidden = true;
      resolve($("key").value.trim() || null);
    };
  });
}

async function failure(res) {
  try {
    const body = await res.json();
    return body?.error?.message || res.status + " " + res.statusText;
  } catch {
    return res.status + " " + res.statusText;
  }
}

async function getJSON(path) {
  const res = await api(path);
  if (!res.ok) throw new Error(await failure(res));
  return res.json();
}

function status(text, bad = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("bad", bad);
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
}

function short(id) {
  return id.length > 10 ? "…" + id.slice(-8) : id;
}

// The graph, drawn by the server.

async function loadGraph() {
  page.graph = await getJSON("/graph");
  $("graph-name").textContent = page.graph.name;
  const doc = new DOMParser().parseFromString(page.graph.svg, "image/svg+xml");
  $("graph").replaceChildren(document.importNode(doc.documentElement, true));
  const fields = $("edit-field");
  fields.replaceChildren(...page.graph.fields.map((f) => el("option", { value: f.name, textContent: f.name })));
  const asNode = $("edit-as-node");
  asNode.replaceChildren(el("option", { value: "", textContent: "(none: the thread stays where it stood)" }),
    ...page.graph.nodes.filter((n) => n.top && n.path !== "END").map((n) => el("option", { value: n.path, textContent: n.path })));
}

function nodeBox(path) {
  return $("graph").querySelector(`[data-node="${CSS.escape(path)}"]`);
}

function mark(path, cls, on) {
  nodeBox(path)?.classList.toggle(cls, on);
}

function clearMarks() {
  for (const n of $("graph").querySelectorAll(".active, .visited")) n.classList.remove("active", "visited");
}

// Threads and their checkpoints.

async function loadThreads() {
  const { threads } = await getJSON("/threads");
  $("threads").replaceChildren(...threads.map((t) => {
    const b = el("button", { type: "button", textContent: t.id, title: t.checkpoints + " checkpoints" });
    b.onclick = () => openThread(t.id);
    return el("li", { class: t.id === page.thread ? "current" : "", "data-thread": t.id }, b);
  }));
}

// branches numbers each checkpoint's line of descent: oldest first, a
// checkpoint goes on its parent's branch if the parent is that branch's
// tip, else it starts a new one (a fork).
function branches(list) {
  const tip = new Map(); // branch -> id of its newest checkpoint
  const of = new Map();
  let count = 0;
  for (const c of [...list].reverse()) {
    let b = of.get(c.parent);
    if (b === undefined || tip.get(b) !== c.parent) b = ++count;
    of.set(c.id, b);
    tip.set(b, c.id);
  }
  return of;
}

async function openThread(id, select) {
  page.thread = id;
  $("thread-id").value = id;
  $("thread-name").textContent = id;
  for (const li of $("threads").children) li.classList.toggle("current", li.dataset.thread === id);
  const [{ checkpoints }, thread] = await Promise.all([getJSON(`/threads/${encodeURIComponent(id)}/checkpoints`),
    getJSON(`/threads/${encodeURIComponent(id)}`)]);
  page.checkpoints = checkpoints;
  const branch = branches(checkpoints);
  $("checkpoints").replaceChildren(...checkpoints.map((c) => {
    const what = c.source === "update" ? "edit" : c.source === "interrupt" ? "paused" : c.node || c.source;
    const b = el("button", { type: "button" },
      el("span", { class: "step", textContent: "#" + c.step }),
      el("span", { class: "what", textContent: what }),
      el("span", { class: "branch", textContent: "branch " + branch.get(c.id) }),
      el("span", { class: "next muted", textContent: c.next.length ? "→ " + c.next.join(", ") : "end" }));
    if (c.decisions.length) b.append(el("span", { class: "rows", textContent: c.decisions.map((d) => d.table + " row " + d.rule).join(", ") }));
    b.onclick = () => openCheckpoint(c.id);
    return el("li", { "data-id": c.id, "data-branch": String(branch.get(c.id)), class: c.id === page.selected ? "selected" : "" }, b);
  }));
  showInterrupts(thread.interrupts);
  if (select) await openCheckpoint(select);
}

function showInterrupts(list) {
  const waiting = list.filter((i) => i.value === undefined);
  $("interrupts").hidden = waiting.length === 0;
  $("interrupt-list").replaceChildren(...waiting.map((i) =>
    el("li", {}, el("code", { textContent: i.node }), " asks: ", el("code", { textContent: JSON.stringify(i.payload) }))));
}

function json(v) {
  return v === undefined ? "—" : JSON.stringify(v, null, 1);
}

async function openCheckpoint(id) {
  const d = await getJSON(`/threads/${encodeURIComponent(page.thread)}/checkpoints/${encodeURIComponent(id)}`);
  page.selected = id;
  page.state = d.state;
  for (const li of $("checkpoints").children) li.classList.toggle("selected", li.dataset.id === id);
  const c = d.checkpoint;
  $("detail").hidden = false;
  $("detail-id").textContent = id;
  $("detail-meta").textContent = `step ${c.step} · ${c.source}${c.node ? " after " + c.node : ""} · next: ${c.next.join(", ") || "none (ended)"}` +
    (c.parent ? ` · parent ${short(c.parent)}` : "");
  $("detail-decisions").replaceChildren(...(c.decisions.length ? [el("h4", { textContent: "Decision-table rows that fired" }),
    el("ul", { class: "decisions" }, ...c.decisions.map((r) => el("li", {},
      el("strong", { textContent: `${r.table} row ${r.rule}` }), " → " + Object.entries(r.outputs || {}).map(([k, v]) => k + "=" + v).join(", ") +
        (r.inputs ? "  (" + Object.entries(r.inputs).map(([k, v]) => k + "=" + JSON.stringify(v)).join(", ") + ")" : ""))))] : []));
  $("diff").tBodies[0].replaceChildren(...d.diff.map((ch) => el("tr", { "data-field": ch.field },
    el("td", { textContent: ch.field }), el("td", {}, el("pre", { textContent: json(ch.before) })),
    el("td", {}, el("pre", { textContent: json(ch.after) })))));
  $("detail-state").textContent = JSON.stringify(d.state, null, 2);
  fillEdit();
}

function fillEdit() {
  const name = $("edit-field").value;
  const f = page.graph.fields.find((x) => x.name === name);
  $("edit-reduce").textContent = f ? f.type + (f.reduce ? ` · reduce: ${f.reduce} (the value is merged as a node's output is: ${f.reduce === "append" ? "its items are added" : "by " + f.reduce})` : " · the value replaces the field's") : "";
  const v = page.state?.[name];
  $("edit-value").value = v === undefined ? "" : JSON.stringify(v, null, 1);
}

// Runs, streamed as server-sent events.

async function stream(body) {
  if (page.running) return;
  page.running = true;
  document.body.dataset.running = "true";
  $("run").disabled = $("fork").disabled = $("replay").disabled = true;
  clearMarks();
  $("log").replaceChildren();
  const thread = page.thread || $("thread-id").value.trim();
  status("running on " + thread + " …");
  try {
    const res = await api(`/threads/${encodeURIComponent(thread)}/runs`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(await failure(res));
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      for (let end; (end = buffer.indexOf("\n\n")) >= 0; ) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = "message";
        let data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        if (data) onEvent(name, JSON.parse(data));
      }
    }
  } catch (e) {
    status(e.message, true);
  } finally {
    page.running = false;
    $("run").disabled = $("fork").disabled = $("replay").disabled = false;
    for (const n of $("graph").querySelectorAll(".active")) n.classList.remove("active");
    await refresh(thread);
    delete document.body.dataset.running;
  }
}

function onEvent(name, d) {
  const log = $("log");
  switch (name) {
    case "node":
      mark(d.path, "active", d.event === "start");
      if (d.event === "end") mark(d.path, "visited", true);
      if (d.event === "end") log.append(el("li", { class: d.error ? "bad" : "", "data-path": d.path }, el("code", { textContent: d.path }),
        ` ${d.duration_ms} ms` + (d.error ? " · " + d.error : "")));
      break;
    case "update":
      if (d.fields.length) log.append(el("li", { class: "muted" }, el("code", { textContent: d.path }), " changed " + d.fields.join(", ")));
      break;
    case "interrupted":
      // The node that asked ended with its question, not a failure.
      for (const i of d.interrupts || []) {
        for (const li of log.querySelectorAll(`li.bad[data-path="${CSS.escape(i.node)}"]`)) {
          li.className = "paused";
          li.lastChild.textContent = " · paused: waits for an answer";
        }
      }
      status("paused: the run waits for an answer");
      break;
    case "error":
      status("the run failed: " + d.message, true);
      break;
    case "done":
      status("the run ended");
      break;
  }
}

async function refresh(thread) {
  try {
    await loadThreads();
    if (thread) await openThread(thread);
  } catch (e) {
    status(e.message, true);
  }
}

function wire() {
  $("thread-id").value = "run-" + Date.now().toString(36);
  $("run-form").onsubmit = (e) => {
    e.preventDefault();
    page.thread = $("thread-id").value.trim();
    stream({ input: $("input").value });
  };
  $("refresh").onclick = () => refresh(page.thread);
  $("edit-field").onchange = fillEdit;
  $("edit-form").onsubmit = async (e) => {
    e.preventDefault();
    let value;
    try {
      value = JSON.parse($("edit-value").value);
    } catch (err) {
      status("value: not JSON: " + err.message, true);
      return;
    }
    const res = await api(`/threads/${encodeURIComponent(page.thread)}/checkpoints/${encodeURIComponent(page.selected)}/fork`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ field: $("edit-field").value, value, as_node: $("edit-as-node").value }),
    });
    if (!res.ok) {
      status(await failure(res), true);
      return;
    }
    const { checkpoint } = await res.json();
    status("forked at " + short(checkpoint) + "; continuing …");
    await stream({ checkpoint });
  };
  $("replay").onclick = () => stream({ checkpoint: page.selected });
  $("resume").onclick = () => {
    let value;
    try {
      value = JSON.parse($("resume-value").value);
    } catch (err) {
      status("answer: not JSON: " + err.message, true);
      return;
    }
    stream({ resume: value });
  };
}

async function start() {
  wire();
  try {
    await loadGraph();
    await loadThreads();
    status("ready");
    document.body.dataset.ready = "true";
  } catch (e) {
    status(e.message, true);
  }
}

start();
