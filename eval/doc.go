// Package eval measures sgrgraph's turns against labelled sets: it reads
// the sets (JSONL, set.go), turns what a run observed into figures
// (metrics.go, terms.go, measure.go), checks them against floors
// (floors.go) and renders the report as Markdown and as a self-contained
// HTML page with SVG plots (markdown.go, html.go, svg.go).
//
// It is measurement only: running the turns is the runner's job
// (package eval/runner), so nothing here knows of graphs or models.
package eval
