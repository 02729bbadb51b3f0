package tables

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// AcceptExampleChanges records each change's new rule in its file, so the
// tables load again. A .dmn file is edited in place: only the rule
// attribute of the changed example elements, so a modeler's layout and
// everything else in the file stay byte for byte. A .json file is written
// again in the form `sgrgraph tables --json` prints.
func AcceptExampleChanges(changes []ExampleChange) error {
	byFile := map[string][]ExampleChange{}
	var files []string
	for _, c := range changes {
		if c.File == "" {
			return fmt.Errorf("%s example %d: no file to record it in", c.Table, c.Example)
		}
		if c.Now == 0 {
			return fmt.Errorf("%s: %s example %d selects no rule; fix the table, not the example", c.File, c.Table, c.Example)
		}
		if _, ok := byFile[c.File]; !ok {
			files = append(files, c.File)
		}
		byFile[c.File] = append(byFile[c.File], c)
	}
	for _, f := range files {
		var err error
		if strings.EqualFold(filepath.Ext(f), ".dmn") {
			err = acceptDMN(f, byFile[f])
		} else {
			err = acceptJSON(f, byFile[f])
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
}

var ruleAttr = regexp.MustCompile(`\brule\s*=\s*("[^"]*"|'[^']*')`)

// acceptDMN rewrites the rule attribute of the changed example elements.
func acceptDMN(path string, changes []ExampleChange) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	want := map[int]int{} // example (1-based) → new rule
	for _, c := range changes {
		want[c.Example] = c.Now
	}
	type span struct{ from, to, rule int }
	var spans []span
	d := xml.NewDecoder(bytes.NewReader(data))
	n := 0
	for {
		from := int(d.InputOffset())
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "example" || se.Name.Space != sgrDMNSpace {
			continue
		}
		n++
		if rule, ok := want[n]; ok {
			spans = append(spans, span{from, int(d.InputOffset()), rule})
		}
	}
	if len(spans) != len(want) {
		return fmt.Errorf("found %d example elements, not the %d changed ones", len(spans), len(want))
	}
	var out bytes.Buffer
	last := 0
	for _, s := range spans {
		tag := data[s.from:s.to]
		loc := ruleAttr.FindIndex(tag)
		if loc == nil {
			return fmt.Errorf("example at byte %d has no rule attribute", s.from)
		}
		out.Write(data[last : s.from+loc[0]])
		out.WriteString(`rule="` + strconv.Itoa(s.rule) + `"`)
		last = s.from + loc[1]
	}
	out.Write(data[last:])
	return writeKeepingMode(path, out.Bytes())
}

// acceptJSON sets the changed examples' rules and writes the file again.
func acceptJSON(path string, changes []ExampleChange) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	defs, err := parseTables(path, data)
	if err != nil {
		return err
	}
	for _, c := range changes {
		found := false
		for i := range defs {
			if defs[i].ID == c.Table && c.Example >= 1 && c.Example <= len(defs[i].Examples) {
				defs[i].Examples[c.Example-1].Rule = c.Now
				found = true
			}
		}
		if !found {
			return fmt.Errorf("%s example %d is not in the file", c.Table, c.Example)
		}
	}
	var v any = defs
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] != '[' {
		v = defs[0]
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return writeKeepingMode(path, buf.Bytes())
}

// writeKeepingMode replaces path's content through a temporary file, so a
// failed write leaves the old file whole.
func writeKeepingMode(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".accept-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
