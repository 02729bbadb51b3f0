package sgrtest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sgrgraph/sgrgraph/sgrtest"
)

const datadrivenFile = `# Two commands; the second has input and an output with a blank line.
set mode=report topics=(salary, boss pay) text="a b" verbose
----
ok

# a comment kept by -update
echo
line one
line two
----
----
line one

line two
----
----

empty
----

# trailing comment
`

func TestDatadrivenParse(t *testing.T) {
	cases, tail, err := sgrtest.ParseDataDriven("f", datadrivenFile)
	require.NoError(t, err)
	require.Len(t, cases, 3)
	assert.Equal(t, []string{"# trailing comment"}, tail)

	set := cases[0]
	assert.Equal(t, "f:2", set.Pos)
	assert.Equal(t, "set", set.Cmd)
	assert.Equal(t, []sgrtest.Arg{
		{Key: "mode", Vals: []string{"report"}},
		{Key: "topics", Vals: []string{"salary", "boss pay"}, List: true},
		{Key: "text", Vals: []string{"a b"}},
		{Key: "verbose"},
	}, set.Args)
	v, ok := set.Arg("topics")
	assert.True(t, ok)
	assert.Equal(t, "salary,boss pay", v)
	_, ok = set.Arg("missing")
	assert.False(t, ok)
	assert.Empty(t, set.Input)
	assert.Equal(t, "ok\n", set.Want)

	echo := cases[1]
	assert.Equal(t, "f:7", echo.Pos)
	assert.Equal(t, "line one\nline two", echo.Input)
	assert.Equal(t, "line one\n\nline two\n", echo.Want)

	assert.Equal(t, "empty", cases[2].Cmd)
	assert.Empty(t, cases[2].Want)

	assert.Equal(t, datadrivenFile, sgrtest.FormatDataDriven(cases, tail), "a file reads and writes back the same")
}

func TestDatadrivenParseErrors(t *testing.T) {
	for name, text := range map[string]string{
		"no separator":      "run\ninput\n",
		"unclosed double":   "run\n----\n----\nout\n",
		"unclosed list":     "run topics=(a, b\n----\n",
		"bad quoted string": "run text=\"a\n----\n",
	} {
		_, _, err := sgrtest.ParseDataDriven("f", text)
		assert.Error(t, err, name)
	}
}

func TestDatadrivenUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "case")
	require.NoError(t, os.WriteFile(path, []byte("# upper-cases its input\nupper\nabc\n----\nstale\n\nupper\nx\n\ny\n----\n"), 0o644))
	upper := func(c *sgrtest.Case) string { return strings.ToUpper(c.Input) }

	sgrtest.RunDataDriven(t, path, true, upper)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "# upper-cases its input\nupper\nabc\n----\nABC\n\nupper\nx\n\ny\n----\n----\nX\n\nY\n----\n----\n", string(got),
		"the outputs are rewritten, the comment and inputs kept, an output with a blank line doubly separated")

	sgrtest.RunDataDriven(t, path, false, upper) // the rewritten file passes

	inner := &failRecorder{TB: t}
	sgrtest.RunDataDriven(inner, path, false, func(*sgrtest.Case) string { return "other" })
	assert.True(t, inner.failed, "a changed output fails the test")
}

// failRecorder notes a failure instead of failing the test around it.
type failRecorder struct {
	testing.TB
	failed bool
}

func (f *failRecorder) Helper()               {}
func (f *failRecorder) Errorf(string, ...any) { f.failed = true }
