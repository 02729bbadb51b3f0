package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/kb"
)

// FuzzWriteResult: a result is written as json.Marshal writes it.
func FuzzWriteResult(f *testing.F) {
	f.Add("guard <mode> & \"x\"", "Line\nnext\t\u2028 \x01 \xff ё", "A > B", "a,b", 0.8307183540431828, 1e-7, 3, true)
	f.Add("", "", "", "", 0.0, 1e21, 0, false)
	f.Add("q", "\\ / \b \f \r", "h", "", math.Copysign(0, -1), 123456789.0, -1, true)
	f.Fuzz(func(t *testing.T, query, text, heading, tags string, score, raw float64, n int, flag bool) {
		var tagList []string
		if tags != "" {
			tagList = []string{tags, text}
		}
		res := kb.Result{Query: query, Articles: []contracts.Article{
			{KBID: query, Title: heading, URL: text, Tags: tagList, Score: score, Chunks: []contracts.Chunk{
				{ID: heading, Heading: heading, Text: text, Score: raw, HasCode: flag}, {Text: query, Score: score}}},
			{KBID: "b", Chunks: []contracts.Chunk{}}, {KBID: "c"},
		}, Confidence: contracts.RetrievalConfidence{TopScore: score, MeanTopK: raw, ScoreGap: score - raw, NAboveThreshold: n, LikelyRelevant: flag}}
		checkWriteResult(t, res)
		checkWriteResult(t, kb.Result{Query: query})
		checkWriteResult(t, kb.Result{Query: query, Articles: []contracts.Article{}})
		checkWriteResult(t, kb.Result{Query: query, Fallback: text})
	})
}

func checkWriteResult(t *testing.T, res kb.Result) {
	t.Helper()
	want, err := json.Marshal(res)
	var w jsonWriter
	ok := w.result(res)
	if ok != (err == nil) {
		t.Fatalf("result ok %v, json.Marshal error %v", ok, err)
	}
	if ok && w.String() != string(want) {
		t.Fatalf("result wrote\n%s\njson.Marshal writes\n%s", w.String(), want)
	}
}

// TestWriteResultKnowsEveryField: a field added to a result's types must
// be written by jsonWriter too.
func TestWriteResultKnowsEveryField(t *testing.T) {
	for typ, n := range map[reflect.Type]int{reflect.TypeFor[kb.Result](): 4, reflect.TypeFor[contracts.Article](): 6,
		reflect.TypeFor[contracts.Chunk](): 5, reflect.TypeFor[contracts.RetrievalConfidence](): 5} {
		assert.Equal(t, n, typ.NumField(), "%s has fields jsonWriter does not write", typ)
	}
	var w jsonWriter
	require.False(t, w.result(kb.Result{Confidence: contracts.RetrievalConfidence{TopScore: math.NaN()}}), "NaN is no JSON number")
}

// TestSafeWordIsSafeByteByByte: the word test agrees with the byte table
// for every byte in every place.
func TestSafeWordIsSafeByteByByte(t *testing.T) {
	for _, fill := range []byte{'a', 0x80, ' ', '<'} {
		for at := range 8 {
			for c := range 256 {
				w := bytes.Repeat([]byte{fill}, 8)
				w[at] = byte(c)
				want := true
				for _, b := range w {
					want = want && b < utf8.RuneSelf && jsonSafe[b]
				}
				if got := safeWord(string(w)); got != want {
					t.Fatalf("safeWord(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
}
