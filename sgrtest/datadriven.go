package sgrtest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Case is one test case of a data-driven file, in the format of etcd raft's
// and CockroachDB's datadriven tests:
//
//	# comments
//	command key=value key=(a, b) key="a b" flag
//	input lines
//	----
//	expected output
//	<blank line ends the case>
//
// An output that holds blank lines is written between two double
// separators: "----" "----" before it and "----" "----" after it.
type Case struct {
	Pos   string // file:line of the command
	Cmd   string
	Args  []Arg
	Input string // the input lines, joined by "\n"
	Want  string // the expected output; ends in "\n" unless empty

	pre  []string // comments and blank lines before the command, as written
	head []string // the command and input lines, as written
}

// Arg is one argument of a command: key, key=value, key="quoted value" or
// key=(a, b).
type Arg struct {
	Key  string
	Vals []string
	List bool // given in parentheses
}

// Arg returns the value of the named argument; a list's values are joined
// by commas.
func (c *Case) Arg(key string) (string, bool) {
	for _, a := range c.Args {
		if a.Key == key {
			return strings.Join(a.Vals, ","), true
		}
	}
	return "", false
}

// ParseDataDriven reads the cases of a data-driven file; the lines after
// the last case (comments, blank lines) are returned as they are.
func ParseDataDriven(name, text string) (cases []*Case, tail []string, err error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	var pre []string
	for i := 0; i < len(lines); i++ {
		if l := lines[i]; strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			pre = append(pre, l)
			continue
		}
		c := &Case{Pos: fmt.Sprintf("%s:%d", name, i+1), pre: pre}
		pre = nil
		if c.Cmd, c.Args, err = parseCommand(lines[i]); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", c.Pos, err)
		}
		start := i
		for i++; i < len(lines) && lines[i] != "----"; i++ {
		}
		if i == len(lines) {
			return nil, nil, fmt.Errorf("%s: no ---- after the command", c.Pos)
		}
		c.head = lines[start:i]
		c.Input = strings.Join(lines[start+1:i], "\n")
		var want []string
		if i+1 < len(lines) && lines[i+1] == "----" { // the double form ends at "----" "----"
			for i += 2; i < len(lines) && !(lines[i] == "----" && i+1 < len(lines) && lines[i+1] == "----"); i++ {
				want = append(want, lines[i])
			}
			if i == len(lines) {
				return nil, nil, fmt.Errorf("%s: no closing ---- ---- for the output", c.Pos)
			}
			i++ // at the second closing separator; a blank line after it ends the case
			if i+1 < len(lines) && lines[i+1] == "" {
				i++
			}
		} else {
			for i++; i < len(lines) && lines[i] != ""; i++ {
				want = append(want, lines[i])
			}
		}
		if len(want) > 0 {
			c.Want = strings.Join(want, "\n") + "\n"
		}
		cases = append(cases, c)
	}
	return cases, pre, nil
}

// parseCommand splits a command line into its name and arguments.
func parseCommand(line string) (string, []Arg, error) {
	cmd, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	var args []Arg
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		end := strings.IndexAny(rest, "= ")
		if end < 0 {
			end = len(rest)
		}
		if end == len(rest) || rest[end] == ' ' { // a bare key
			args = append(args, Arg{Key: rest[:end]})
			rest = rest[end:]
			continue
		}
		a := Arg{Key: rest[:end]}
		rest = rest[end+1:]
		switch {
		case strings.HasPrefix(rest, "("):
			closing := strings.IndexByte(rest, ')')
			if closing < 0 {
				return "", nil, fmt.Errorf("argument %s: no closing )", a.Key)
			}
			for _, v := range strings.Split(rest[1:closing], ",") {
				a.Vals = append(a.Vals, strings.TrimSpace(v))
			}
			a.List, rest = true, rest[closing+1:]
		case strings.HasPrefix(rest, `"`):
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return "", nil, fmt.Errorf("argument %s: %w", a.Key, err)
			}
			v, _ := strconv.Unquote(q)
			a.Vals, rest = []string{v}, rest[len(q):]
		default:
			v, after, _ := strings.Cut(rest, " ")
			a.Vals, rest = []string{v}, after
		}
		args = append(args, a)
	}
	return cmd, args, nil
}

// FormatDataDriven writes cases back in the file format, with the
// comments, commands and inputs as they were read.
func FormatDataDriven(cases []*Case, tail []string) string {
	var b strings.Builder
	for _, c := range cases {
		for _, l := range append(append([]string(nil), c.pre...), c.head...) {
			b.WriteString(l + "\n")
		}
		out := c.Want
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		if strings.HasPrefix(out, "\n") || strings.Contains(out, "\n\n") {
			fmt.Fprintf(&b, "----\n----\n%s----\n----\n\n", out)
		} else {
			fmt.Fprintf(&b, "----\n%s\n", out)
		}
	}
	for _, l := range tail {
		b.WriteString(l + "\n")
	}
	// The blank line that ends the last case ends the file.
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// RunDataDriven runs every case of the file at path through run and
// compares what it returns with the expected output; with update set it
// rewrites the file with the actual outputs instead, keeping the comments,
// commands and inputs.
func RunDataDriven(t testing.TB, path string, update bool, run func(c *Case) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, tail, err := ParseDataDriven(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		got := run(c)
		if got != "" && !strings.HasSuffix(got, "\n") {
			got += "\n"
		}
		if update {
			c.Want = got
		} else if got != c.Want {
			t.Errorf("%s: %s output differs at line %s (run with -update to accept):\n--- want\n%s--- got\n%s",
				c.Pos, c.Cmd, firstDiff(c.Want, got), c.Want, got)
		}
	}
	if update {
		if err := os.WriteFile(path, []byte(FormatDataDriven(cases, tail)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// firstDiff says where two outputs part: the line number and both lines.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; ; i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			line := func(l []string) string {
				if i < len(l) {
					return strconv.Quote(l[i])
				}
				return "(none)"
			}
			return fmt.Sprintf("%d: want %s, got %s", i+1, line(w), line(g))
		}
	}
}
