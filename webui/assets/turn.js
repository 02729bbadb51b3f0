// One turn on the page: the question, then the answer as the turn's
// events arrive (POST /v1/turns, stream: true), as the CLI shows a turn:
// the nodes it passes (guardian → plan → search → judge), its searches,
// retries and withdrawn drafts, the UI messages, the answer token by
// token; then, from the result, the badges and the panels.

import { APIError } from "./api.js";
import { badgesFor } from "./badges.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { render } from "./markdown.js";
import { analysisPanel, articlesPanel, sourcesList } from "./panels.js";

const steps = ["guardian", "plan", "search", "judge"];

// stepOf maps the default graph's nodes onto the four steps a person follows.
const stepOf = {
  guardian_verify: "guardian", sgr_plan: "plan", inject_synthetic: "plan",
  react_agent: "search", agent_model: "search", call_tool: "search", agent_tools: "search",
  evidence_check: "judge", contract_check: "judge", retry_bump: "judge", human_review: "judge",
};

let counter = 0;

// failureStatus is the status line of a failed turn. A failure of the
// model service or of the server is said plainly, never in the server's
// own words, which may name hosts or carry a program's error; a refused
// request's message names the field at fault, written for the reader.
function failureStatus(err) {
  if (err?.code?.startsWith("model_")) return { key: "error_model", vars: {} };
  if (!(err instanceof APIError)) return { key: "error_network", vars: {} }; // fetch itself failed
  if (err.status >= 500 || err.type === "server_error") return { key: "error_server", vars: {} };
  return { key: "error_request", vars: { message: err.message } };
}

export class Turn {
  // earlier: a turn loaded from the thread, shown without its live parts.
  constructor(container, question, { earlier = false } = {}) {
    this.id = "t" + ++counter;
    this.state = Object.fromEntries(steps.map((s) => [s, "pending"]));
    this.log = []; // {key, vars}: labelled lines, relabelled on a language switch
    this.answer = "";
    this.tokens = 0;
    this.heldIntent = null;
    this.result = null;
    this.earlier = earlier;
    this.cite = (n) => `<a class="cite" href="#ref-${this.id}-${n}" data-cite="${n}">[${n}]</a>`;
    this.build(container, question);
  }

  build(container, question) {
    this.you = el("span", { class: "who" });
    this.who = el("span", { class: "who" });
    this.stepsEl = el("ol", { class: "steps" });
    this.logEl = el("ul", { class: "log" });
    this.uiEl = el("div", { class: "ui-messages" });
    this.answerEl = el("div", { class: "answer markdown", "data-tokens": "0" });
    this.sourcesEl = el("div", { class: "sources-slot" });
    this.statusEl = el("p", { class: "status", role: "status" });
    this.badgesEl = el("div", { class: "badges", role: "list", hidden: true });
    this.panelsEl = el("div", { class: "panels" });
    this.bot = el("div", { class: "bubble assistant", "aria-busy": this.earlier ? "false" : "true" },
      this.who, this.earlier ? null : this.stepsEl, this.logEl, this.uiEl, this.answerEl, this.sourcesEl,
      this.statusEl, this.badgesEl, this.panelsEl);
    this.root = el("article", { class: "turn", id: "turn-" + this.id },
      el("div", { class: "bubble user" }, this.you, el("div", { class: "text" }, question)), this.bot);
    container.append(this.root);
    this.relabel();
  }

  // event shows one event of the stream.
  event(ev) {
    switch (ev.kind) {
      case "node_start": return this.step(stepOf[ev.node]);
      case "token": return ev.node === "agent_model" && this.token(ev.text || "");
      case "ui": return ev.ui && this.ui(ev.ui);
      case "tool_call": return this.toolCall(ev);
      case "retry": return this.note("event_retry", { error: ev.error || "" });
      case "verdict":
        if (ev.verdict && ev.verdict.verdict !== "PASS") {
          this.note("event_withdrawn", { verdict: ev.verdict.verdict, reasons: (ev.verdict.reasons || []).join("; ") });
        }
    }
  }

  // step makes name the running step: the one that ran before is done. A
  // retry goes back from judge to search, and both show it.
  step(name) {
    if (!name || this.state[name] === "active") return;
    for (const s of steps) if (this.state[s] === "active") this.state[s] = "done";
    this.state[name] = "active";
    this.drawSteps();
  }

  token(text) {
    this.answer += text;
    this.tokens++;
    this.answerEl.dataset.tokens = String(this.tokens);
    this.answerEl.innerHTML = render(this.answer, this.cite); // render escapes every character first
  }

  ui(m) {
    switch (m.ui_type) {
      case "intent":
        // Held until the turn shows what it is: a Guardian's refusal never shows the intent (seed 000 template 4).
        this.heldIntent = m.content;
        return;
      case "response":
      case "clarification":
        this.releaseIntent();
        return this.uiMessage(m);
      case "refusal":
        return this.uiMessage(m);
      case "answer":
        // The tokens are the draft as the model wrote it; the answer message
        // is the final text, whose citations may be numbered again to match
        // the sources list ([1], [3] become [1], [2]).
        if (m.content !== this.answer) {
          this.answer = m.content;
          this.answerEl.innerHTML = render(this.answer, this.cite);
        }
        return;
      case "sources":
        this.sourcesEl.replaceChildren(sourcesList(this.id, m.content));
    }
  }

  releaseIntent(before = null) {
    if (this.heldIntent === null) return;
    const node = this.markdown("ui intent", this.heldIntent);
    this.uiEl.insertBefore(node, before);
    this.heldIntent = null;
  }

  uiMessage(m) {
    this.uiEl.append(this.markdown("ui " + m.ui_type, m.content));
  }

  markdown(cls, text) {
    const node = el("div", { class: cls + " markdown" });
    node.innerHTML = render(text, this.cite);
    return node;
  }

  // toolCall notes a call: a search by its query, another tool by its name and arguments.
  toolCall(ev) {
    let args = null;
    try {
      args = JSON.parse(ev.text);
    } catch { /* not JSON: shown as it came */ }
    if (ev.tool === "search_kb" && typeof args?.query === "string") this.note("event_search", { query: args.query });
    else this.note("event_tool", { tool: ev.tool || "", args: ev.text || "" });
  }

  note(key, vars) {
    this.log.push({ key, vars });
    this.logEl.append(el("li", {}, t(key, vars)));
  }

  // finish shows the result: what the stream did not carry, then the
  // badges and panels that make sense for the turn's action.
  finish(res) {
    this.result = res;
    this.root.dataset.action = res.action;
    this.root.dataset.turn = String(res.turn);
    if (res.action === "guardian_block") this.heldIntent = null;
    else this.releaseIntent(this.uiEl.firstChild);
    if (!this.answer && this.uiEl.childElementCount === 0 && res.answer) {
      this.answer = res.answer;
      this.answerEl.innerHTML = render(res.answer, this.cite);
    }
    this.settle(null); // draws the result with the labels
  }

  // fail ends the turn with what went wrong, in the reader's words. The
  // step that was running shows as failed.
  fail(err) {
    for (const s of steps) if (this.state[s] === "active") this.state[s] = "failed";
    this.failed = true;
    this.settle(failureStatus(err));
    this.statusEl.classList.add("error");
  }

  stop() {
    this.settle({ key: "stopped", vars: {} });
  }

  // settle ends the turn's live parts, with a status line or none.
  settle(status) {
    for (const s of steps) this.state[s] = { active: "done", pending: "skipped" }[this.state[s]] || this.state[s];
    this.status = status;
    this.settled = true;
    this.bot.setAttribute("aria-busy", "false");
    this.relabel();
  }

  drawSteps() {
    this.stepsEl.setAttribute("aria-label", t("steps_label"));
    this.stepsEl.replaceChildren(...steps.map((s) => el("li", { class: "step is-" + this.state[s], "data-step": s },
      el("span", { class: "chip" }, el("span", { class: "step-name" }, t("step_" + s)), " ",
        el("span", { class: "step-state" }, t("step_" + this.state[s]))))));
  }

  drawResult() {
    if (!this.result) return this.drawRecord();
    const res = this.result;
    const badges = badgesFor(res);
    this.badgesEl.setAttribute("aria-label", t("badges_label"));
    this.badgesEl.replaceChildren(...badges.map((b) =>
      el("span", { class: "badge badge-" + b.color, role: "listitem", "data-badge": b.kind, title: b.title }, b.text)));
    this.badgesEl.hidden = badges.length === 0;
    const panels = [];
    // The plan of a refusal is not shown: a Guardian's refusal shows nothing of the request, a spam block searched nothing.
    if (res.plan && (res.action === "normal" || res.action === "clarify")) panels.push(analysisPanel(res.plan));
    if (res.action === "normal" && (res.articles || []).length > 0) panels.push(articlesPanel(this.id, res.articles));
    this.panelsEl.replaceChildren(...panels);
  }

  // drawRecord draws what a turn loaded from the thread keeps besides its
  // messages: the person's review and the articles its citations name.
  drawRecord() {
    const parts = [];
    if (this.review) {
      const note = this.review.note ? t("review_note", { note: this.review.note }) : "";
      parts.push(el("p", { class: "review-outcome", "data-decision": this.review.decision }, t("review_done_" + this.review.decision), note ? " " + note : ""));
    }
    if ((this.sources || []).length > 0) parts.push(articlesPanel(this.id, this.sources));
    const open = [...this.panelsEl.querySelectorAll("details")].map((d) => d.open);
    this.panelsEl.replaceChildren(...parts);
    this.panelsEl.querySelectorAll("details").forEach((d, i) => { d.open = Boolean(open[i]); });
  }

  // relabel redraws every label in the current language; the answer and
  // the server's messages stay in the language they were written in.
  relabel() {
    this.you.textContent = t("you");
    this.who.textContent = t("assistant");
    if (!this.earlier) this.drawSteps();
    this.logEl.replaceChildren(...this.log.map((l) => el("li", {}, t(l.key, l.vars))));
    this.statusEl.textContent = this.status ? t(this.status.key, this.status.vars) : this.settled || this.earlier ? "" : t("working");
    const open = [...this.panelsEl.querySelectorAll("details")].map((d) => d.open);
    this.drawResult();
    this.panelsEl.querySelectorAll("details").forEach((d, i) => { d.open = Boolean(open[i]); });
  }

  // showRecord shows a turn loaded from the thread as it was shown: its
  // UI messages (the answer with its citations, the sources list), its
  // sources as the articles its [n] link to, the review it had, or that
  // its draft waits for review.
  showRecord(rec) {
    this.root.dataset.turn = String(rec.turn);
    if (rec.status === "interrupted") return this.waitForReview(rec.pending_review);
    if (rec.status === "abandoned") return this.settle({ key: "review_abandoned", vars: {} });
    for (const m of rec.ui || []) this.ui(m);
    if (rec.action === "guardian_block") this.heldIntent = null;
    else this.releaseIntent(this.uiEl.firstChild);
    if (!this.answer && this.uiEl.childElementCount === 0 && rec.answer) {
      this.answer = rec.answer;
      this.answerEl.innerHTML = render(rec.answer, this.cite);
    }
    this.root.dataset.action = rec.action || "";
    this.sources = rec.sources || [];
    this.review = rec.review || null;
    this.settle(null);
  }

  // waitForReview shows that a person reviews the draft before it goes out.
  waitForReview(pending) {
    this.pending = pending || {};
    this.root.dataset.review = "pending";
    for (const s of steps) if (this.state[s] === "active") this.state[s] = "done";
    this.settle({ key: "review_waiting", vars: {} });
    this.bot.setAttribute("aria-busy", "true");
  }

  // reviewed shows the turn's outcome once the person has answered.
  reviewed(rec) {
    delete this.root.dataset.review;
    this.status = null;
    this.bot.setAttribute("aria-busy", "false");
    this.showRecord(rec);
  }
}
