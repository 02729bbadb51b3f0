// A small Markdown renderer for answers, which are untrusted: they quote
// the knowledge base and echo the user. Every character of the source is
// HTML-escaped before any tag is added, and the only tags added are this
// file's own (p, br, h3-h6, ul, ol, li, blockquote, pre, code, table,
// strong, em, a with a checked http(s), mailto, / or # address). So HTML in
// an answer shows as text, and nothing in it can run.
//
// It knows what answers use: paragraphs, headings, lists, quotes, fenced
// code, simple tables, **bold**, *italic*, `code`, [links](url), bare
// http(s) URLs and citations [n], which cite(n) turns into links.

const escapes = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => escapes[c]);
}

const fence = /^\s*(```|~~~)/;
const listItem = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/;
const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const tableRow = /^\s*\|.*\|\s*$/;
const tableRule = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

// render is the HTML of source; cite(n) gives the HTML of citation [n]
// (n is digits only), or leave it out to keep citations as text.
export function render(source, cite) {
  // NUL marks the fragments inline() holds back; the source may not forge one.
  const lines = String(source ?? "").replace(/\u0000/g, "").replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i];
    let m;
    if (/^\s*$/.test(line)) {
      i++;
    } else if (fence.test(line)) {
      const close = fence.exec(line)[1];
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(close); i++) code.push(lines[i]);
      i++; // the closing fence, or the end
      out.push("<pre><code>" + escapeHTML(code.join("\n")) + "</code></pre>");
    } else if ((m = heading.exec(line))) {
      const level = Math.min(6, m[1].length + 2); // the page has its own h1 and h2
      out.push(`<h${level}>` + inline(m[2], cite) + `</h${level}>`);
      i++;
    } else if (listItem.test(line)) {
      i = list(lines, i, out, cite);
    } else if (/^\s*>/.test(line)) {
      const quoted = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]); i++) quoted.push(lines[i].replace(/^\s*>\s?/, ""));
      out.push("<blockquote>" + render(quoted.join("\n"), cite) + "</blockquote>");
    } else if (tableRow.test(line) && i + 1 < lines.length && tableRule.test(lines[i + 1])) {
      i = table(lines, i, out, cite);
    } else {
      const para = [];
      for (; i < lines.length && !/^\s*$/.test(lines[i]) && !startsBlock(lines[i]); i++) para.push(lines[i].trim());
      if (para.length === 0) para.push(lines[i++].trim()); // a line that starts nothing it can finish
      out.push("<p>" + inline(para.join("\n"), cite).replace(/\n/g, "<br>") + "</p>");
    }
  }
  return out.join("\n");
}

function startsBlock(line) {
  return fence.test(line) || heading.test(line) || listItem.test(line) || /^\s*>/.test(line);
}

// list renders the list that starts at lines[i]; an item goes on over the
// lines that follow it until a blank line or the next item.
function list(lines, i, out, cite) {
  const first = listItem.exec(lines[i]);
  const ordered = /\d/.test(first[1]);
  const items = [];
  for (; i < lines.length; i++) {
    const m = listItem.exec(lines[i]);
    if (m && /\d/.test(m[1]) === ordered) items.push([m[2]]);
    else if (!m && !/^\s*$/.test(lines[i]) && !startsBlock(lines[i])) items[items.length - 1].push(lines[i].trim());
    else break;
  }
  const start = ordered ? parseInt(first[1], 10) : 1;
  const open = ordered ? (start !== 1 ? `<ol start="${start}">` : "<ol>") : "<ul>";
  const body = items.map((it) => "<li>" + inline(it.join("\n"), cite).replace(/\n/g, "<br>") + "</li>").join("");
  out.push(open + body + (ordered ? "</ol>" : "</ul>"));
  return i;
}

function table(lines, i, out, cite) {
  const cells = (line) => line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
  const head = cells(lines[i]).map((c) => "<th scope=\"col\">" + inline(c, cite) + "</th>").join("");
  const rows = [];
  for (i += 2; i < lines.length && tableRow.test(lines[i]); i++) {
    rows.push("<tr>" + cells(lines[i]).map((c) => "<td>" + inline(c, cite) + "</td>").join("") + "</tr>");
  }
  out.push(`<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table></div>`);
  return i;
}

// safeHref says an (escaped) address may be a link: the web, mail, or a
// place on this server. javascript:, data: and the like stay text.
function safeHref(url) {
  return /^(https?:\/\/|mailto:|\/(?!\/)|#)/i.test(url);
}

// inline marks up one block's text. Code spans are held back first (their
// text is literal), the rest is escaped, then links, citations and
// emphasis are marked; held fragments come back at the end.
function inline(text, cite) {
  const held = [];
  const hold = (html) => "\u0000" + (held.push(html) - 1) + "\u0000";
  let s = text.replace(/`([^`\n]+)`/g, (m, code) => hold("<code>" + escapeHTML(code) + "</code>"));
  s = escapeHTML(s);
  s = s.replace(/\[([^\]\u0000\n]+)\]\(([^)\s]+)\)/g, (m, label, url) =>
    safeHref(url) ? hold(`<a href="${url}" target="_blank" rel="noopener noreferrer">${label}</a>`) : m);
  s = s.replace(/\bhttps?:\/\/[^\s\u0000]+[^\s\u0000.,;:!?)]/g, (url) =>
    hold(`<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`));
  if (cite) s = s.replace(/\[(\d{1,3})\]/g, (m, n) => hold(cite(n)));
  s = s.replace(/\*\*([^*\n]+?)\*\*/g, "<strong>$1</strong>").replace(/__([^_\n]+?)__/g, "<strong>$1</strong>");
  s = s.replace(/(^|[^*\w])\*([^*\s](?:[^*\n]*?[^*\s])?)\*(?![*\w])/g, "$1<em>$2</em>");
  s = s.replace(/(^|[^_\w])_([^_\s](?:[^_\n]*?[^_\s])?)_(?![_\w])/g, "$1<em>$2</em>");
  for (let pass = 0; pass < 4 && s.includes("\u0000"); pass++) {
    s = s.replace(/\u0000(\d+)\u0000/g, (m, k) => held[Number(k)] ?? "");
  }
  return s;
}
