// Package webui is the web chat of seed 003 §11, served by sgrgraph serve
// at /: a conversation whose answer streams from POST /v1/turns, the nodes
// the turn passes through, the badges (spam score, retrieval confidence,
// queries, the Guardian's safety level and verdict), the analysis and
// articles panels, and the user's threads (GET /v1/threads), every label
// in ru and en (templates.UILabels, served as /ui/labels.json).
//
// The page is static files embedded in the binary: plain ES modules, no
// build step, no library, nothing fetched from elsewhere. Answers and the
// knowledge base are untrusted, so the page sets text as text, and its
// Markdown renderer (assets/markdown.js) escapes all HTML before it marks
// anything up; the Content-Security-Policy allows scripts from the page's
// own files only, never inline ones.
//
// # Example
//
// ExampleNew mounts the handler beside an API, as server.Options.UI does.
package webui
