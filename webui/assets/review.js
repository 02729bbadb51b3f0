// The reviewer's page: the drafts held for a person (GET /v1/reviews),
// each with its question, the draft, why it was held and its evidence,
// answered with Approve, Edit or Reject (POST /v1/threads/{id}/resume).
// The list is read again every two seconds.

import { api, errorOf, onKeyNeeded } from "./api.js";
import { el } from "./dom.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const shown = new Map(); // interrupt key → card, kept across reads so typing is not lost

async function refresh() {
  const res = await api("/v1/reviews?limit=100");
  if (!res.ok) {
    $("reviews-status").textContent = t("review_failed", { message: (await errorOf(res)).message });
    return;
  }
  const items = (await res.json()).data || [];
  const keys = new Set(items.map((r) => r.thread_id + "/" + r.interrupt_id));
  for (const [key, card] of shown) if (!keys.has(key) && !card.dataset.sent) { card.remove(); shown.delete(key); }
  for (const r of items) {
    const key = r.thread_id + "/" + r.interrupt_id;
    if (!shown.has(key)) {
      const card = draw(r);
      shown.set(key, card);
      $("reviews").append(card);
    }
  }
  $("reviews-status").textContent = shown.size === 0 ? t("reviews_empty") : "";
  document.body.dataset.loaded = "true";
}

// draw is one held draft; everything from the server goes in as text.
function draw(r) {
  const text = el("textarea", { class: "review-text", rows: 4 });
  text.value = r.draft || "";
  const note = el("input", { class: "review-note", type: "text" });
  const result = el("p", { class: "review-result", role: "status" });
  const evidence = (r.evidence || []).map((e) => el("li", {}, (e.ref || e.source || "") + (e.snippet ? ": " + e.snippet : "")));
  const buttons = ["approve", "edit", "reject"].map((d) =>
    el("button", { type: "button", class: d === "approve" ? "primary" : "", "data-decision": d }, t("review_" + d)));
  const card = el("article", { class: "review", "data-thread": r.thread_id, "data-interrupt": r.interrupt_id },
    el("h2", {}, t("review_question")), el("p", { class: "review-question" }, r.question || ""),
    el("h2", {}, t("review_draft")), el("p", { class: "review-draft" }, r.draft || ""),
    el("h2", {}, t("review_why")),
    el("p", { class: "review-why" }, t("review_reason_" + r.reason) + (r.verdict ? " (" + r.verdict + ")" : "")),
    el("ul", { class: "review-reasons" }, (r.reasons || []).map((x) => el("li", {}, x))),
    el("h2", {}, t("review_evidence")), el("ul", { class: "review-evidence" }, evidence),
    el("label", {}, t("review_text_label"), text), el("label", {}, t("review_note_label"), note),
    el("div", { class: "review-buttons" }, buttons), result);
  for (const b of buttons) {
    b.addEventListener("click", () => decide(card, r, b.dataset.decision, text.value, note.value, buttons, result));
  }
  return card;
}

async function decide(card, r, decision, text, note, buttons, result) {
  for (const b of buttons) b.disabled = true;
  const body = { interrupt_id: r.interrupt_id, decision, note };
  if (decision === "edit") body.text = text;
  const res = await api(`/v1/threads/${encodeURIComponent(r.thread_id)}/resume`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!res.ok) {
    result.textContent = t("review_failed", { message: (await errorOf(res)).message });
    for (const b of buttons) b.disabled = false;
    return;
  }
  await res.json();
  card.dataset.sent = decision;
  result.textContent = t("review_sent", { decision: t("review_" + decision) });
}

// askKey shows the key dialog and resolves to what is typed, or null.
function askKey(rejected) {
  const dialog = $("key-dialog");
  $("key-rejected").hidden = !rejected;
  $("key-input").value = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve($("key-input").value.trim() || null), { once: true });
    if (!dialog.open) dialog.showModal();
    $("key-input").focus();
  });
}

async function boot() {
  onKeyNeeded(askKey);
  await i18n.load();
  i18n.apply();
  document.title = t("reviews_title");
  document.body.dataset.ready = "true";
  for (;;) {
    try {
      await refresh();
    } catch (err) {
      $("reviews-status").textContent = t("review_failed", { message: err.message });
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

boot();
