// The badges of seed 003 §11 under an answer, from the turn's structured
// result. Each badge says its value in words (and a sign), never by its
// colour alone; the colour is a class: green, orange, red, grey or info.

import { t } from "./i18n.js";

// spam: green below 0.3 (Low), orange below 0.6 (Medium), red otherwise (High).
export function spamBadge(score) {
  const s = Number(score) || 0;
  const [color, level, sign] = s < 0.3 ? ["green", "low", "✓"] : s < 0.6 ? ["orange", "medium", "⚠"] : ["red", "high", "✗"];
  return { kind: "spam", color, text: t("badge_spam", { score: s.toFixed(2), level: sign + " " + t("level_" + level) }) };
}

// confidence is the mean top_score of the query traces: green High above
// 0.7, orange Medium above 0.4, red Low otherwise, grey N/A without traces.
export function confidenceBadge(traces) {
  if (!traces || traces.length === 0) return { kind: "confidence", color: "grey", text: t("badge_confidence", { level: t("level_na") }) };
  const mean = traces.reduce((sum, q) => sum + (Number(q.confidence?.top_score) || 0), 0) / traces.length;
  const [color, level] = mean > 0.7 ? ["green", "high"] : mean > 0.4 ? ["orange", "medium"] : ["red", "low"];
  return { kind: "confidence", color, text: t("badge_confidence", { level: t("level_" + level) }), title: mean.toFixed(2) };
}

const safetyColors = { Safe: "green", Controversial: "orange", Unsafe: "red" };
const verdictColors = { PASS: "green", RETRY: "orange", FAIL: "red" };

export function safetyBadge(level) {
  const known = level in safetyColors ? level.toLowerCase() : "unknown";
  return { kind: "safety", color: safetyColors[level] || "grey", text: t("badge_safety", { level: t("safety_" + known) }) };
}

export function verdictBadge(verdict) {
  const label = verdict in verdictColors ? t("verdict_" + verdict.toLowerCase()) : verdict;
  return { kind: "verdict", color: verdictColors[verdict] || "grey", text: t("badge_verdict", { verdict: label }) };
}

// badgesFor is the row for a result: only the badges that mean something
// for its action. A refusal by the Guardian shows its safety level alone;
// a spam block and a clarifying question searched nothing, so they show
// no confidence, queries or verdict.
export function badgesFor(res) {
  const out = [];
  const answered = res.action === "normal";
  if (res.action !== "guardian_block" && res.plan) out.push(spamBadge(res.plan.spam_score));
  if (answered) {
    out.push(confidenceBadge(res.query_traces));
    out.push({ kind: "queries", color: "info", text: t("badge_queries", { count: (res.query_traces || []).length }) });
  }
  if (res.moderation) out.push(safetyBadge(res.moderation.level));
  if (answered && res.verdict) out.push(verdictBadge(res.verdict.verdict));
  return out;
}
