package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newGraphCmd(a *app) *cobra.Command {
	var f turnFlags
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Print the compiled default graph as a Mermaid diagram, edges labelled from the decision tables",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ag, done, err := f.build(cmd, a)
			if err != nil {
				return err
			}
			defer done()
			_, err = fmt.Fprint(a.out, ag.Graph().Mermaid())
			return err
		},
	}
	f.registerKB(cmd) // the graph is compiled over a knowledge base, so where it lives matters
	return cmd
}
