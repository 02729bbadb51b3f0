package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestEmbeddedFilesAreTrainedFromTheSets: go generate's training gives the
// embedded weights and background counts byte for byte.
func TestEmbeddedFilesAreTrainedFromTheSets(t *testing.T) {
	dir := t.TempDir()
	weights, background := filepath.Join(dir, "w.bin"), filepath.Join(dir, "b.tsv")
	if err := run("../../../../tests/testdata/offtopic/train", weights, background); err != nil {
		t.Fatal(err)
	}
	for got, want := range map[string]string{weights: "../../spam_weights.bin", background: "../../background.tsv"} {
		g, err := os.ReadFile(got)
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("%s differs from what training writes: run go generate ./models/offline", want)
		}
	}
}
