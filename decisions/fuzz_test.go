package decisions

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/tables"
)

// FuzzEvaluate: any inputs to any standard table, built from any valid
// thresholds, never panic; the result is the first rule that matches when
// each rule is evaluated alone, or no match; and an input every column
// accepts always selects a rule, since the standard tables are complete
// over their inputs' domains.
func FuzzEvaluate(f *testing.F) {
	for _, cfg := range []Config{DefaultConfig(), {SpamThreshold: 0.5, ConfidenceThreshold: 0.4, MaxRetries: 3}} {
		set, err := Standard(cfg)
		require.NoError(f, err)
		for ti, tbl := range set.All() {
			for _, e := range tbl.Examples {
				f.Add(encodeConfig(cfg), uint8(ti), encodeInputs(tbl, e.Inputs))
			}
		}
	}
	hostile := [][]byte{
		nil, {0}, {kindFloat, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f}, // NaN
		{kindFloat, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f},        // +Inf
		{kindSmall, 0xce, kindSmall, 0x0a, kindValue, 3}, // -5, 1, a listed value
		{kindText, 3, 'N', 'a', 'N', kindText, 4, '-', 'I', 'n', 'f'},
		{kindBool, 1, kindInt, 0xff, kindMissing},
	}
	for ti := range 6 {
		for _, h := range hostile {
			f.Add([]byte{178, 153, 2}, uint8(ti), h)
		}
	}
	f.Fuzz(func(t *testing.T, cfgBytes []byte, which uint8, data []byte) {
		set, err := Standard(decodeConfig(cfgBytes))
		require.NoError(t, err)
		all := set.All()
		tbl := all[int(which)%len(all)]
		in := decodeInputs(tbl, data)

		got, err := tbl.Evaluate(in)
		if acceptsAll(t, tbl, in) {
			require.NoError(t, err, "%s: an input every column accepts selects no rule: %v", tbl.ID, in)
		}

		want, wantErr := firstAlone(t, tbl, in)
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error(), "%s %v", tbl.ID, in)
			return
		}
		require.NoError(t, err, "%s %v", tbl.ID, in)
		require.Equal(t, want, got, "%s %v", tbl.ID, in)
		for _, c := range tbl.Outputs {
			assert.Equal(t, tbl.Rules[got.Rule-1].Outputs[outputIndex(tbl, c.Name)], got.Get(c.Name))
		}
	})
}

// firstAlone evaluates each rule of tbl as a table of its own, in order,
// and returns what FIRST must return: the first rule that matches, or the
// error every one-rule table gives when none does.
func firstAlone(t *testing.T, tbl *tables.Table, in map[string]any) (tables.Result, error) {
	var last error
	for i, r := range tbl.Rules {
		alone, err := tables.New(tables.Table{ID: tbl.ID, Inputs: tbl.Inputs, Outputs: tbl.Outputs, Rules: []tables.Rule{r}})
		require.NoError(t, err)
		res, err := alone.Evaluate(in)
		if err == nil {
			res.Rule = i + 1
			return res, nil
		}
		last = err
	}
	return tables.Result{}, last
}

// acceptsAll says whether every input column of tbl accepts in: a table
// of the same columns whose one rule matches anything refuses nothing else.
func acceptsAll(t *testing.T, tbl *tables.Table, in map[string]any) bool {
	anything := make([]string, len(tbl.Inputs))
	for j := range anything {
		anything[j] = "-"
	}
	open, err := tables.New(tables.Table{ID: tbl.ID, Inputs: tbl.Inputs, Outputs: tbl.Outputs,
		Rules: []tables.Rule{{Inputs: anything, Outputs: tbl.Rules[0].Outputs}}})
	require.NoError(t, err)
	_, err = open.Evaluate(in)
	return err == nil
}

func outputIndex(tbl *tables.Table, name string) int {
	for k, c := range tbl.Outputs {
		if c.Name == name {
			return k
		}
	}
	return -1
}

// decodeConfig reads thresholds in their valid ranges from three bytes.
func decodeConfig(b []byte) Config {
	b = append(b, 0, 0, 0)
	return Config{SpamThreshold: float64(b[0]) / 255, ConfidenceThreshold: float64(b[1]) / 255, MaxRetries: int(b[2]) % 11}
}

func encodeConfig(c Config) []byte {
	return []byte{byte(math.Round(c.SpamThreshold * 255)), byte(math.Round(c.ConfidenceThreshold * 255)), byte(c.MaxRetries)}
}

func decodeInputs(tbl *tables.Table, data []byte) map[string]any {
	next := func(n int) []byte {
		out := make([]byte, n)
		k := copy(out, data)
		data = data[k:]
		return out
	}
	in := map[string]any{}
	for _, c := range tbl.Inputs {
		switch next(1)[0] % kinds {
		case kindMissing:
		case kindFloat:
			in[c.Name] = math.Float64frombits(binary.LittleEndian.Uint64(next(8)))
		case kindSmall:
			in[c.Name] = float64(int8(next(1)[0])) / 10
		case kindValue:
			pick := int(next(1)[0])
			if len(c.Values) > 0 {
				in[c.Name] = c.Values[pick%len(c.Values)]
			} else {
				in[c.Name] = []string{"0", "1", "0.5", "-1", "NaN", "Inf", "true", "false", " 0.7 ", ""}[pick%10]
			}
		case kindText:
			in[c.Name] = string(next(int(next(1)[0])))
		case kindBool:
			in[c.Name] = next(1)[0]%2 == 1
		case kindInt:
			in[c.Name] = int(int8(next(1)[0]))
		}
	}
	return in
}

// encodeInputs writes the examples a table carries in the form
// decodeInputs reads, as the seed corpus.
func encodeInputs(tbl *tables.Table, in map[string]any) []byte {
	var out []byte
	for _, c := range tbl.Inputs {
		switch v := in[c.Name].(type) {
		case float64:
			out = binary.LittleEndian.AppendUint64(append(out, kindFloat), math.Float64bits(v))
		case int:
			out = append(out, kindInt, byte(int8(v)))
		case bool:
			b := byte(0)
			if v {
				b = 1
			}
			out = append(out, kindBool, b)
		case string:
			out = append(append(out, kindText, byte(len(v))), v...)
		default:
			out = append(out, kindMissing)
		}
	}
	return out
}

// The kinds of value an encoded input holds: fuzzed bytes choose, per input
// column, one kind and its value.
const (
	kindMissing = iota
	kindFloat   // 8 bytes, any float64 bits
	kindSmall   // 1 byte: a signed tenth, -12.8 to 12.7
	kindValue   // 1 byte: a value the column lists, or a number as text
	kindText    // a length byte, then the text
	kindBool    // 1 byte
	kindInt     // 1 byte, signed
	kinds
)
