package eval

import (
	"fmt"
	"strconv"
	"strings"
)

// Floor is the bound a headline figure must keep: at least Value when Op
// is ">=", at most Value when Op is "<=".
type Floor struct {
	Figure string
	Op     string
	Value  float64
}

// Breach is a floor a report does not keep.
type Breach struct {
	Floor
	// Value is the figure measured; Missing when no set produced it.
	Value   float64
	Missing bool
}

func (b Breach) String() string {
	if b.Missing {
		return fmt.Sprintf("%s: not measured (no set produced it), floor %s %.3f", b.Figure, b.Op, b.Floor.Value)
	}
	side := "below its floor"
	if b.Op == "<=" {
		side = "above its ceiling"
	}
	return fmt.Sprintf("%s = %.3f, %s %.3f", b.Figure, b.Value, side, b.Floor.Value)
}

// floorsHeading starts the section of a Markdown document that holds the
// floors table.
const floorsHeading = "## Floors"

// ParseFloors reads the floors from the Markdown table under the "## Floors"
// heading: rows whose first cell is a figure name in backticks and whose
// second is "≥ 0.9" or "≤ 0.1" (">=" and "<=" also do).
func ParseFloors(markdown string) ([]Floor, error) {
	var floors []Floor
	in := false
	for n, line := range strings.Split(markdown, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = strings.TrimSpace(line) == floorsHeading
			continue
		case !in || !strings.HasPrefix(line, "|"):
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) < 2 {
			continue
		}
		name := strings.TrimSpace(cells[0])
		if !strings.HasPrefix(name, "`") || !strings.HasSuffix(name, "`") || len(name) < 3 {
			continue // the header and the rule under it
		}
		f, err := parseBound(strings.TrimSpace(cells[1]))
		if err != nil {
			return nil, fmt.Errorf("floors, line %d: %s: %w", n+1, name, err)
		}
		f.Figure = strings.Trim(name, "`")
		floors = append(floors, f)
	}
	if len(floors) == 0 {
		return nil, fmt.Errorf("floors: no table of floors under %q", floorsHeading)
	}
	return floors, nil
}

func parseBound(cell string) (Floor, error) {
	for _, op := range []struct{ prefix, op string }{{"≥", ">="}, {">=", ">="}, {"≤", "<="}, {"<=", "<="}} {
		if rest, ok := strings.CutPrefix(cell, op.prefix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				return Floor{}, fmt.Errorf("bound %q: not a number after %s", cell, op.prefix)
			}
			return Floor{Op: op.op, Value: v}, nil
		}
	}
	return Floor{}, fmt.Errorf("bound %q: want ≥ or ≤ and a number", cell)
}

// Check returns the floors the figures do not keep, in the floors' order.
func Check(figures []Figure, floors []Floor) []Breach {
	byName := map[string]float64{}
	for _, f := range figures {
		byName[f.Name] = f.Value
	}
	var out []Breach
	for _, f := range floors {
		v, ok := byName[f.Figure]
		switch {
		case !ok:
			out = append(out, Breach{Floor: f, Missing: true})
		case f.Op == ">=" && v < f.Value, f.Op == "<=" && v > f.Value:
			out = append(out, Breach{Floor: f, Value: v})
		}
	}
	return out
}
