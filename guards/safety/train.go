package safety

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"github.com/sgrgraph/sgrgraph/contracts"
	evalsplit "github.com/sgrgraph/sgrgraph/eval/split"
)

// Example is one labelled message of the training data
// (testdata/train/<source>/data.jsonl).
type Example struct {
	Text       string                `json:"text"`
	Lang       string                `json:"lang"`
	Level      contracts.SafetyLevel `json:"level"`
	Categories []string              `json:"categories"`
	// Group keeps related rows on the same side of the held-out split (one
	// article of the criminal code, one action phrased many ways).
	Group string `json:"group,omitempty"`
	// Pair names the Russian and English versions of one message.
	Pair string `json:"pair,omitempty"`
	// Lookalike marks a safe message that contains a trigger word.
	Lookalike bool `json:"lookalike,omitempty"`
	// Source is the directory the row came from, or "sets" for a row of a
	// labelled set (see TrainingSets).
	Source string `json:"-"`
	// setWeight, for a row of the development part of a labelled set
	// (TrainingSet), is how much more it weighs than a row of
	// testdata/train; 0 for those. The set chose its part already, so such
	// a row is never held out here.
	setWeight float32
}

// HeldOut reports whether an example belongs to the held-out fifth of its
// source: a hash of the source and the group (or the text), so the split
// never depends on the order of the files and whole groups stay together.
func (e Example) HeldOut() bool {
	if e.setWeight > 0 {
		return false
	}
	key := e.Group
	if key == "" {
		key = e.Text
	}
	h := fnv.New32a()
	h.Write([]byte(e.Source + "\x00" + key))
	return h.Sum32()%5 == 0
}

// LoadExamples reads every source directory under dir in name order.
func LoadExamples(dir string) ([]Example, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "data.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		// A model trained on nothing would pass for one: run in another
		// folder, the command would write it all the same.
		return nil, fmt.Errorf("%s: no */data.jsonl to train on", dir)
	}
	sort.Strings(files)
	var out []Example
	for _, name := range files {
		err := eachRow(name, func(e Example) error {
			e.Source = filepath.Base(filepath.Dir(name))
			out = append(out, e)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Training settings. The model must hold up on phrasing it has not seen, so
// it is regularised rather than fitted to the sets: few epochs, weight decay.
type trainSettings struct {
	runs   int // runs over different shuffles, averaged
	epochs int
	rate   float64 // the first epoch's learning rate; it falls as 1/(1+epoch/2)
	shrink float32 // L2 weight decay: every weight shrinks this much after each epoch
	// agree is how much the agreement of a pair's Russian and English
	// versions counts beside fitting each one's label.
	agree float32
}

var defaultTraining = trainSettings{runs: 3, epochs: 12, rate: 2, shrink: 0.98, agree: 4}

const trainSeed = 15

// TrainModel trains the model on the training split of the examples under
// dir and returns the weights file. The same data gives the same bytes on
// the same architecture: the files are read in name order, the shuffles have
// fixed seeds, no map's order reaches a sum or the bytes written (the
// dictionary's sums run in the order of the rows, its ties are broken by
// name, it is written sorted), and every product is rounded before it is
// added, so the compiler fuses no multiply-add.
func TrainModel(dir string, sets ...TrainingSet) ([]byte, error) {
	all, err := LoadExamples(dir)
	if err != nil {
		return nil, err
	}
	more, err := LoadSetExamples(sets)
	if err != nil {
		return nil, err
	}
	return train(append(all, more...), defaultTraining)
}

// TrainingSet is a labelled guard set (sgrgraph eval's format, its path
// from this package's folder, where go generate runs) whose development
// part the model is trained on beside testdata/train, and how much more one
// of its rows weighs than a row of testdata/train. Its held-out part is
// measured, never trained on (docs/eval.md).
type TrainingSet struct {
	Path   string
	Weight float32
}

// TrainingSets are the benign requests that share a harmful request's
// topic beside their harmful contrasts, in English and in Russian.
//
// The CoCoNot twins weigh 8: there their harmful-versus-benign ROC AUC,
// cross-validated within their development parts, stopped rising. The
// customer-support twins (a customer's own alarming situation beside a
// request to harm someone in the same words) weigh 2: of 1, 2, 3 and 8,
// the weight that flagged most of the other sets' harmful requests for
// the fewest of their benign ones given Unsafe, on their development
// parts; at 8 the model learnt the support set's wording and gave more
// ordinary requests Unsafe. The services twins and the writing twins (a
// request for writing that would deceive or harm beside one for a
// legitimate purpose) weigh 2 too, chosen the same way of pairs of
// weights from 0.5 to 4; the writing twins alone cost the services set's
// held-out recall (docs/guard-offline.md).
var TrainingSets = []TrainingSet{
	{"../../tests/testdata/guard_twins.jsonl", 8},
	{"../../tests/testdata/guard_twins_ru.jsonl", 8},
	{"../../tests/testdata/guard_support.jsonl", 2},
	{"../../tests/testdata/guard_content.jsonl", 2},
	{"../../tests/testdata/guard_services.jsonl", 2},
}

// setRow is a guard line of a labelled set as LoadSetExamples reads it.
type setRow struct {
	ID         string                `json:"id"`
	Text       string                `json:"text"`
	Lang       string                `json:"lang"`
	Level      contracts.SafetyLevel `json:"level"`
	Categories []string              `json:"categories"`
	Group      string                `json:"group"`
	Pair       string                `json:"pair"`
	Lookalike  bool                  `json:"lookalike"`
}

// LoadSetExamples reads the development part of labelled guard sets
// (evalsplit.Of, the part sgrgraph eval reports as dev), in the order of the
// paths and lines. A row's key (its id, group or pair) places it in a part;
// its pair, else that key, names the Russian and English versions of one
// request, which learn to agree: a group may hold a request and its
// harmful twin, two pairs (guard_support.jsonl). A Controversial row is
// trained as flagged, as an Unsafe one.
func LoadSetExamples(sets []TrainingSet) ([]Example, error) {
	var out []Example
	for _, set := range sets {
		if set.Weight <= 0 {
			return nil, fmt.Errorf("%s: weight %g: must be more than 0", set.Path, set.Weight)
		}
		err := eachRow(set.Path, func(r setRow) error {
			key := evalsplit.Key(r.ID, r.Group, r.Pair, r.Text)
			if evalsplit.Of(key) == evalsplit.Dev {
				out = append(out, Example{Text: r.Text, Lang: r.Lang, Level: r.Level, Categories: r.Categories,
					Group: key, Pair: cmp.Or(r.Pair, key), Lookalike: r.Lookalike, Source: "sets", setWeight: set.Weight})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// labelledRow is a row of a JSON Lines file of labelled messages.
type labelledRow interface {
	level() (contracts.SafetyLevel, []string)
}

func (e Example) level() (contracts.SafetyLevel, []string) { return e.Level, e.Categories }
func (r setRow) level() (contracts.SafetyLevel, []string)  { return r.Level, r.Categories }

// eachRow reads the JSON Lines file name, giving each row to add; a row
// that does not parse, or flags a message without naming a category, is an
// error naming the file and line.
func eachRow[R labelledRow](name string, add func(R) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var r R
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if level, categories := r.level(); level != contracts.LevelSafe && len(categories) == 0 {
			return fmt.Errorf("%s:%d: categories: a %s row needs at least one", name, line, level)
		}
		if err := add(r); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func train(all []Example, set trainSettings) ([]byte, error) {
	dict := learnConcepts(parallel(all))
	var rows []trainRow
	var pairs [][2]int            // the rows of a Russian and an English version of one message
	side := map[string][2][]int{} // the rows of each pair's Russian and English versions
	// Each language's Safe and flagged rows weigh the same in total, so the
	// many unsafe Russian prompts do not teach that Russian is unsafe.
	count := map[string]int{}
	for _, e := range all {
		if !e.HeldOut() {
			count[e.Lang+string(e.Level)]++
		}
	}
	for _, e := range all {
		if e.HeldOut() {
			continue
		}
		var r trainRow
		norm := normalize(e.Text)
		eachFeature(norm, dict, func(h uint32) { r.feats = append(r.feats, h) })
		r.value = float32(featureValue(len(r.feats)))
		if e.Level == contracts.LevelSafe {
			r.target[0] = 1
		}
		for _, c := range e.Categories {
			i, err := classIndex(c)
			if err != nil {
				return nil, fmt.Errorf("%s: %q: %w", e.Source, e.Text, err)
			}
			r.target[i] += 1 / float32(len(e.Categories))
		}
		other := count[e.Lang+string(contracts.LevelSafe)]
		if e.Level == contracts.LevelSafe {
			other = count[e.Lang+string(contracts.LevelUnsafe)] + count[e.Lang+string(contracts.LevelControversial)]
		}
		r.weight = float32(math.Sqrt(float64(max(other, 1)) / float64(count[e.Lang+string(e.Level)])))
		if e.setWeight > 0 {
			r.weight *= e.setWeight
		}
		if key, lang, ok := e.version(); ok {
			sides := side[key]
			for _, other := range sides[1-lang] {
				var p [2]int
				p[lang], p[1-lang] = len(rows), other
				pairs = append(pairs, p)
			}
			sides[lang] = append(sides[lang], len(rows))
			side[key] = sides
		}
		rows = append(rows, r)
		if cr, ok := conceptRow(norm, dict, r); ok {
			rows = append(rows, cr)
		}
	}
	// Several runs over different shuffles, averaged: one run's weights
	// depend on the order it saw the rows in, and a message near the
	// threshold would flip with any change to the data.
	w := make([]float32, modelBuckets*modelClasses)
	var bias [modelClasses]float32
	for run := range set.runs {
		rw, rb := sgd(rows, pairs, set, trainSeed+uint64(run))
		for i := range w {
			w[i] += float32(rw[i] / float32(set.runs))
		}
		for c := range bias {
			bias[c] += float32(rb[c] / float32(set.runs))
		}
	}
	scale, q := quantise(w)
	return encodeModel(scale, bias, q, dict), nil
}

// parallel are the Russian and English texts of each pair of the training
// split, normalised and without their question frames, the versions of one
// language joined, in the order the pairs first occur.
func parallel(all []Example) [][2]string {
	at := map[string]int{}
	var out [][2]string
	for _, e := range all {
		key, side, ok := e.version()
		if e.HeldOut() || !ok {
			continue
		}
		i, seen := at[key]
		if !seen {
			i = len(out)
			at[key] = i
			out = append(out, [2]string{})
		}
		out[i][side] += unframed(normalize(e.Text)) // as the model reads it
	}
	return out
}

// version names the pair a row is a version of, within its source, and its
// side: 0 Russian, 1 English. ok is false for a row of no pair or of another
// language.
func (e Example) version() (key string, side int, ok bool) {
	if e.Pair == "" || e.Lang != "ru" && e.Lang != "en" {
		return "", 0, false
	}
	if e.Lang == "en" {
		side = 1
	}
	return e.Source + "\x00" + e.Pair, side, true
}

// quantise keeps each weight as an int8 with one scale per class.
func quantise(w []float32) (scale [modelClasses]float32, q []int8) {
	for i, x := range w {
		c := i % modelClasses
		scale[c] = max(scale[c], float32(math.Abs(float64(x))))
	}
	for c := range scale {
		scale[c] /= 127
		if scale[c] == 0 {
			scale[c] = 1
		}
	}
	q = make([]int8, len(w))
	for i, x := range w {
		q[i] = int8(math.Round(float64(x / scale[i%modelClasses])))
	}
	return scale, q
}

// trainRow is one example as the training loop reads it.
type trainRow struct {
	feats  []uint32
	value  float32
	target [modelClasses]float32
	weight float32
}

// sgd is one run of stochastic gradient descent with its own shuffle.
//
// It is not instrumented under -race (go:norace): it is one goroutine's
// arithmetic over slices no other goroutine sees, so the detector has
// nothing to find, and checking each of its weight updates made the
// race-enabled test that retrains the model (TestTrainReproduces) spend
// four times the CPU of the rest of the package.
//
//go:norace
func sgd(rows []trainRow, pairs [][2]int, set trainSettings, seed uint64) ([]float32, [modelClasses]float32) {
	w := make([]float32, modelBuckets*modelClasses)
	var bias [modelClasses]float32
	rng := rand.New(rand.NewPCG(seed, seed))
	predict := func(r trainRow) [modelClasses]float64 {
		var scores [modelClasses]float64
		for c := range modelClasses {
			scores[c] = float64(bias[c])
		}
		for _, h := range r.feats {
			for c := range modelClasses {
				p := float32(w[int(h)*modelClasses+c] * r.value)
				scores[c] += float64(p)
			}
		}
		return softmax(scores)
	}
	move := func(r trainRow, step [modelClasses]float32) {
		for _, h := range r.feats {
			for c := range modelClasses {
				d := float32(step[c] * r.value)
				w[int(h)*modelClasses+c] -= d
			}
		}
	}
	for epoch := range set.epochs {
		rate := float32(set.rate / (1 + float64(epoch)/2))
		for _, i := range rng.Perm(len(rows) + len(pairs)) {
			if i >= len(rows) {
				// The two versions of one message learn from each
				// other's prediction, so that the words each language
				// says it in come to weigh the same: fitting each
				// version's label alone left a tenth of the held-out
				// pairs judged apart, each side's own words deciding.
				ru, en := rows[pairs[i-len(rows)][0]], rows[pairs[i-len(rows)][1]]
				pr, pe := predict(ru), predict(en)
				var step [modelClasses]float32
				for c := range modelClasses {
					step[c] = float32(rate * float32(set.agree*float32(pr[c]-pe[c])))
				}
				move(ru, step)
				for c := range step {
					step[c] = -step[c]
				}
				move(en, step)
				continue
			}
			r := rows[i]
			p := predict(r)
			var step [modelClasses]float32
			for c := range modelClasses {
				g := float32(float32(p[c])-r.target[c]) * r.weight
				step[c] = float32(rate * g)
				bias[c] -= step[c]
			}
			move(r, step)
		}
		for i := range w {
			w[i] = float32(w[i] * set.shrink)
		}
	}
	return w, bias
}

// heldOutRow is a held-out example as the guard sets of sgrgraph eval
// read it (docs/eval.md), with the source it came from.
type heldOutRow struct {
	Text       string                `json:"text"`
	Lang       string                `json:"lang"`
	Level      contracts.SafetyLevel `json:"level"`
	Categories []string              `json:"categories"`
	Lookalike  bool                  `json:"lookalike"`
	// Pair is the source and the row's pair, so sgrgraph eval compares the
	// Russian and English versions TestHeldOut compares.
	Pair string `json:"pair,omitempty"`
	// Group is the source and the row's group, which places the row in
	// sgrgraph eval's development or held-out part (docs/eval.md) so that
	// one request phrased many ways stays on one side there too.
	Group  string `json:"group,omitempty"`
	Source string `json:"source"`
}

// HeldOutSet is the held-out fifth of the training data under dir as a
// JSONL guard set, one line per example in the order the sources are read:
// what sgrgraph eval measures the model on (tests/testdata/guard_heldout.jsonl).
func HeldOutSet(dir string) ([]byte, error) {
	all, err := LoadExamples(dir)
	if err != nil {
		return nil, err
	}
	var b []byte
	for _, e := range all {
		if !e.HeldOut() {
			continue
		}
		categories := e.Categories
		if categories == nil {
			categories = []string{}
		}
		line, err := json.Marshal(heldOutRow{e.Text, e.Lang, e.Level, categories, e.Lookalike, e.setPair(), e.setGroup(), e.Source})
		if err != nil {
			return nil, err
		}
		b = append(append(b, line...), '\n')
	}
	return b, nil
}

// setPair and setGroup are the pair and the group a held-out row carries
// in guard_heldout.jsonl: the source and the row's own, so that rows of
// different sources never share them.
func (e Example) setPair() string  { return prefixed(e.Source, e.Pair) }
func (e Example) setGroup() string { return prefixed(e.Source, e.Group) }

func prefixed(source, key string) string {
	if key == "" {
		return ""
	}
	return source + "/" + key
}

// evalPart is the part of guard_heldout.jsonl, the held-out fifth as a
// labelled set, a held-out row falls in (evalsplit.Of of the key sgrgraph eval
// reads from its line).
func (e Example) evalPart() evalsplit.Part {
	return evalsplit.Of(evalsplit.Key("", e.setGroup(), e.setPair(), e.Text))
}

// conceptRow is a copy of a row that reads only its concepts (see
// concepts), weighing conceptWeight times as much. The model could fit
// every row on each language's own words and leave the shared concepts
// little weight; rows it must fit on concepts alone make them carry what a
// request means in either language. (When they were added, held-out ru/en
// agreement was 0.904 at 1× and 0.912 at 2×; at 3× the look-alike false
// positives passed 0.10.)
func conceptRow(norm string, dict *concepts, r trainRow) (trainRow, bool) {
	var feats []uint32
	eachConceptFeature(norm, dict, func(h uint32) { feats = append(feats, h) })
	if len(feats) == 0 {
		return r, false
	}
	r.feats = feats
	r.value = float32(featureValue(len(feats)))
	r.weight *= conceptWeight
	return r, true
}

const conceptWeight = 2
