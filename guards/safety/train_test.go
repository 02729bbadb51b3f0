package safety

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTrainReproduces trains the model again on the committed data and
// checks it gives the embedded weights byte for byte: model.bin is what
// `go generate ./guards/safety` makes, and nothing else.
func TestTrainReproduces(t *testing.T) {
	b, err := TrainModel("testdata/train")
	require.NoError(t, err)
	require.Equal(t, len(embeddedModel), len(b), "size of the trained weights")
	require.True(t, bytes.Equal(embeddedModel, b), "model.bin differs from a fresh training: run go generate ./guards/safety")
	require.LessOrEqual(t, len(b), 2<<20, "weights file size")
}

func TestLoadExamplesNamesTheBadLine(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writeFile(dir+"/x/data.jsonl", `{"text":"a","lang":"en","level":"Safe"}`+"\n"+`{"text":"b","lang":"en","level":"Unsafe"}`+"\n"))
	_, err := LoadExamples(dir)
	require.ErrorContains(t, err, "data.jsonl:2: categories")
}

func TestTrainingOnNoDataFails(t *testing.T) {
	_, err := TrainModel(t.TempDir())
	require.ErrorContains(t, err, "no */data.jsonl to train on", "a folder without training data is no empty model")
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func TestHeldOutSetIsCurrent(t *testing.T) {
	b, err := HeldOutSet("testdata/train")
	require.NoError(t, err)
	committed, err := os.ReadFile("../../tests/testdata/guard_heldout.jsonl")
	require.NoError(t, err)
	require.True(t, bytes.Equal(committed, b), "tests/testdata/guard_heldout.jsonl differs from the held-out split: run go generate ./guards/safety")
}
