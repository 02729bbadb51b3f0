package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/tables"
)

func (a *app) tables() (*tables.Set, error) {
	t := a.cfg.Tables
	return tables.Standard(tables.Config{
		SpamThreshold:       t.SpamThreshold,
		ConfidenceThreshold: t.ConfidenceThreshold,
		MaxRetries:          t.MaxRetries,
	})
}

func newTablesCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tables",
		Short: "Print every decision table (Markdown, or JSON with --json)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			set, err := a.tables()
			if err != nil {
				return err
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
	return cmd
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
