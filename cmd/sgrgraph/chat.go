package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
)

func newChatCmd(a *app) *cobra.Command {
	var f turnFlags
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Talk to the default graph turn by turn; an empty line or EOF ends",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ag, done, err := f.build(cmd, a)
			if err != nil {
				return err
			}
			defer done()
			session := newSessionID()
			var history []*schema.Message
			lines := bufio.NewScanner(cmd.InOrStdin())
			lines.Buffer(make([]byte, 64*1024), 4*agent.MaxMessageRunes)
			for turn := 1; ; turn++ {
				fmt.Fprint(a.out, "> ")
				if !lines.Scan() || strings.TrimSpace(lines.Text()) == "" {
					fmt.Fprintln(a.out)
					return lines.Err()
				}
				t := agent.Turn{SessionID: session, Number: turn, Message: lines.Text(), History: history, Language: f.lang}
				p := &printer{out: a.out}
				if !f.asJSON {
					t.Events = p.event
				}
				s, err := ag.RunState(cmd.Context(), t)
				if err != nil {
					return err
				}
				history = s.Messages
				if f.asJSON {
					if err := writeJSON(a.out, agent.Result(s)); err != nil {
						return err
					}
					continue
				}
				p.finish(agent.Result(s))
			}
		},
	}
	f.register(cmd)
	return cmd
}

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
	return cmd
}
