package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/decisions"
	"github.com/sgrgraph/sgrgraph/tables"
)

func (a *app) tables() (*tables.Set, error) { return decisions.Standard(a.cfg.Tables) }

func newTablesCmd(a *app) *cobra.Command {
	var asJSON bool
	var dmnDir, checkDir, acceptDir string
	cmd := &cobra.Command{
		Use:   "tables",
		Short: "Print every decision table (Markdown, or JSON with --json), or write them as DMN 1.3 files (--dmn DIR)",
		Long: `tables prints the decision tables the turn routes by: those of tables.dir where the configuration
names one, else the standard ones. --dmn DIR writes each as DIR/ID.dmn, a DMN 1.3 file that Camunda Modeler
and dmn-js open; an edited file (or the JSON of --json) in tables.dir replaces the standard table at the next
start, once it has passed every check.

A modeler does not show the examples a table carries, so an edited threshold can change the rule an
example selects, and the start-up then refuses the table. --check DIR lists every such example (inputs,
old → new rule and outputs) and exits 1 when there is one; --accept DIR shows the same list and records
the new rules in the files. A table that fails any other check is refused by both.`,
		Example: "  sgrgraph tables --dmn tables/\n  sgrgraph tables --check tables/\n  sgrgraph tables --accept tables/\n" +
			"  sgrgraph decide DT-002 spam_score=0.6 intent_confidence=0.9 guardian_level=Safe",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case checkDir != "" && acceptDir != "":
				return errors.New("--check and --accept: give one")
			case checkDir != "":
				return checkExamples(a, checkDir, false)
			case acceptDir != "":
				return checkExamples(a, acceptDir, true)
			}
			set, err := a.tables()
			if err != nil {
				return err
			}
			if dmnDir != "" {
				return writeDMN(a, set, dmnDir)
			}
			if asJSON {
				return writeJSON(a.out, set.All())
			}
			parts := make([]string, 0, len(set.All()))
			for _, t := range set.All() {
				parts = append(parts, t.Markdown())
			}
			_, err = fmt.Fprintln(a.out, strings.Join(parts, "\n"))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the tables as JSON")
	cmd.Flags().StringVar(&dmnDir, "dmn", "", "write each table as DIR/ID.dmn (DMN 1.3), creating DIR")
	cmd.Flags().StringVar(&checkDir, "check", "", "list the examples of DIR's tables whose rule changed; exit 1 if any")
	cmd.Flags().StringVar(&acceptDir, "accept", "", "list the examples of DIR's tables whose rule changed and record the new rules")
	return cmd
}

// checkExamples lists the examples of dir's tables whose outcome changed
// and, with accept, records the new outcomes in the files.
func checkExamples(a *app, dir string, accept bool) error {
	changes, err := decisions.ExampleChangesIn(a.cfg.Tables, dir)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		_, err := fmt.Fprintln(a.out, "every example selects its rule")
		return err
	}
	for _, c := range changes {
		fmt.Fprintln(a.out, c)
	}
	if !accept {
		return fmt.Errorf("%d example(s) select another rule; `sgrgraph tables --accept %s` records the new rules", len(changes), dir)
	}
	if err := tables.AcceptExampleChanges(changes); err != nil {
		return err
	}
	_, err = fmt.Fprintf(a.out, "recorded the new rule of %d example(s)\n", len(changes))
	return err
}

// writeDMN writes every table of set into dir as a .dmn file.
func writeDMN(a *app, set *tables.Set, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--dmn: %w", err)
	}
	for _, t := range set.All() {
		data, err := t.DMN()
		if err != nil {
			return err
		}
		path := filepath.Join(dir, t.ID+".dmn")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("--dmn: %w", err)
		}
		fmt.Fprintln(a.out, path)
	}
	return nil
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
