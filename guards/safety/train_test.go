package safety

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// TestTrainReproduces trains the model again on the committed data and
// checks it gives the embedded weights byte for byte: model.bin is what
// `go generate ./guards/safety` makes, and nothing else.
func TestTrainReproduces(t *testing.T) {
	b, err := TrainModel("testdata/train", TrainingSets...)
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

// TestPairsLearnFromEachOther trains on one source with and without the
// agreement of its pairs and checks that it brings each pair's Russian and
// English predictions closer.
func TestPairsLearnFromEachOther(t *testing.T) {
	all, err := LoadExamples("testdata/train")
	require.NoError(t, err)
	var own []Example
	for _, e := range all {
		if e.Source == "own" && !e.HeldOut() {
			own = append(own, e)
		}
	}
	gap := func(agree float32) float64 {
		b, err := train(own, trainSettings{runs: 1, epochs: 4, rate: 2, shrink: 0.98, agree: agree})
		require.NoError(t, err)
		m, err := decodeModel(b)
		require.NoError(t, err)
		flagged := map[string][2]float64{}
		for _, e := range own {
			if e.Pair == "" {
				continue
			}
			side := 0
			if e.Lang == "en" {
				side = 1
			}
			f := flagged[e.Pair]
			f[side] = 1 - m.probabilities(normalize(e.Text))[0]
			flagged[e.Pair] = f
		}
		sum := 0.0
		for _, f := range flagged {
			sum += math.Abs(f[0] - f[1])
		}
		return sum / float64(len(flagged))
	}
	apart, together := gap(0), gap(4)
	t.Logf("mean gap between a pair's flagged probabilities: %.4f alone, %.4f learning from each other", apart, together)
	require.Less(t, together, apart*0.9)
}

// TestSetRowsWeighMore trains on one source and the development parts of
// the labelled sets (TrainingSets), with the sets' rows weighing as a
// source row and as TrainingSets weighs them, and checks that the weight
// makes the model fit them closer: the mean probability it gives each
// row's label, each row counted as TrainingSets weighs it, rises. (Counted
// once each, the rows of sets weighing 2 are fitted less closely when the
// CoCoNot twins weigh 8 beside them: the weights say which rows matter
// more, and the mean is taken as they say.)
func TestSetRowsWeighMore(t *testing.T) {
	all, err := LoadExamples("testdata/train")
	require.NoError(t, err)
	sets, err := LoadSetExamples(TrainingSets)
	require.NoError(t, err)
	require.NotEmpty(t, sets)
	var rows []Example
	for _, e := range all {
		if e.Source == "own" && !e.HeldOut() {
			rows = append(rows, e)
		}
	}
	fit := func(weighs func(Example) float32) float64 {
		all := slices.Clone(rows)
		for _, e := range sets {
			e.setWeight = weighs(e)
			all = append(all, e)
		}
		b, err := train(all, trainSettings{runs: 1, epochs: 4, rate: 2, shrink: 0.98, agree: 4})
		require.NoError(t, err)
		m, err := decodeModel(b)
		require.NoError(t, err)
		sum, weights := 0.0, 0.0
		for _, e := range sets {
			safe := m.probabilities(normalize(e.Text))[0]
			if e.Level != contracts.LevelSafe {
				safe = 1 - safe
			}
			sum += float64(e.setWeight) * safe
			weights += float64(e.setWeight)
		}
		return sum / weights
	}
	once := fit(func(Example) float32 { return 1 })
	weighed := fit(func(e Example) float32 { return e.setWeight })
	t.Logf("mean probability of the sets' rows' labels: %.4f weighing 1, %.4f weighing as TrainingSets says", once, weighed)
	require.Greater(t, weighed, once+0.02)
}

// TestSetWithoutWeightIsAnError: a set given no weight would be trained on
// as rows of testdata/train are, its held-out part too; it is refused.
func TestSetWithoutWeightIsAnError(t *testing.T) {
	path := TrainingSets[0].Path
	_, err := LoadSetExamples([]TrainingSet{{Path: path}})
	require.EqualError(t, err, path+": weight 0: must be more than 0")
}
