// Package studio serves a page to watch a compiled graph's runs, read the
// state at each checkpoint, edit a field and fork from it, replay, and
// answer pending interrupts: for the default turn (ForAgent) or any graph
// a Go program serves (New).
package studio
