// Package tests holds black-box tests that span packages: the import layers,
// and later end-to-end turns, golden transcripts and benchmarks.
package tests
