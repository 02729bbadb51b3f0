package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/tables"
)

func (a *app) tables() (*tables.Set, error) { return tables.Standard(a.cfg.Tables) }

func newTablesCmd(a *app) *cobra.Command {
	var asJSON bool
	var dmnDir string
	cmd := &cobra.Command{
		Use:   "tables",
		Short: "Print every decision table (Markdown, or JSON with --json), or write them as DMN 1.3 files (--dmn DIR)",
		Long: `tables prints the decision tables the turn routes by: those of tables.dir where the configuration
names one, else the standard ones. --dmn DIR writes each as DIR/ID.dmn, a DMN 1.3 file that Camunda Modeler
and dmn-js open; an edited file (or the JSON of --json) in tables.dir replaces the standard table at the next
start, once it has passed every check.`,
		Example: "  sgrgraph tables --dmn tables/\n  sgrgraph decide DT-002 spam_score=0.6 intent_confidence=0.9 guardian_level=Safe",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
	return cmd
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
