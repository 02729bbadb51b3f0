// The panels under an answer (seed 003 §11), folded by default: the
// analysis summary (intent, subqueries, action plan) and the retrieved
// articles (rank, title, confidence, URL), and the answer's sources list.
// Everything from the result goes in as text.

import { el, webURL } from "./dom.js";
import { t } from "./i18n.js";

// citeLink is citation [n] of a turn: a link to row n of its articles.
export function citeLink(turnID, n) {
  return el("a", { class: "cite", href: `#ref-${turnID}-${n}`, "data-cite": n }, `[${n}]`);
}

export function analysisPanel(plan) {
  const items = (list, tag) => el(tag, {}, (list || []).map((x) => el("li", {}, x)));
  return el("details", { class: "panel analysis" },
    el("summary", {}, t("analysis_heading")),
    el("dl", {},
      el("dt", {}, t("analysis_intent")), el("dd", { class: "intent" }, plan.user_intent || ""),
      el("dt", {}, t("analysis_subqueries")), el("dd", {}, items(plan.subqueries, "ul")),
      el("dt", {}, t("analysis_action_plan")), el("dd", {}, items(plan.action_plan, "ol"))));
}

// articlesPanel numbers the articles as the answer's [n] citations do: in
// the order the searches returned them.
export function articlesPanel(turnID, articles) {
  const rows = articles.map((a, i) => {
    const url = webURL(a.url) ? el("a", { href: a.url, target: "_blank", rel: "noopener noreferrer" }, a.url) : "—";
    return el("tr", { id: `ref-${turnID}-${i + 1}`, tabindex: "-1" },
      el("td", {}, String(i + 1)),
      el("td", { class: "title" }, a.title || a.kb_id || t("articles_untitled")),
      el("td", {}, (Number(a.score) || 0).toFixed(2)),
      el("td", { class: "url" }, url));
  });
  const head = ["articles_rank", "articles_title", "articles_confidence", "articles_url"].map((k) => el("th", { scope: "col" }, t(k)));
  return el("details", { class: "panel articles" },
    el("summary", {}, t("articles_heading", { count: articles.length })),
    el("div", { class: "table-wrap" }, el("table", {}, el("thead", {}, el("tr", {}, head)), el("tbody", {}, rows))));
}

// sourcesList is the sources UI message ("Sources:" then "[n] Title"
// lines) as a heading and a list whose numbers link to the articles.
export function sourcesList(turnID, content) {
  const [heading, ...lines] = String(content).split("\n").filter((l) => l.trim() !== "");
  const items = lines.map((line) => {
    const m = /^\[(\d{1,3})\]\s*(.*)$/.exec(line.trim());
    return m ? el("li", {}, citeLink(turnID, m[1]), " ", m[2]) : el("li", {}, line.trim());
  });
  return el("div", { class: "sources" }, el("p", { class: "sources-heading" }, heading || ""), el("ul", {}, items));
}
