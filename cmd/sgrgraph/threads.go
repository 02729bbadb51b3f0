package main

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/checkpoint"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// stateCodec reads the default turn's checkpointed states.
var stateCodec = checkpoint.Codec[*contracts.ChatState]{Version: 1}

func newThreadsCmd(a *app) *cobra.Command {
	var where string
	var asJSON bool
	// withStore runs a subcommand with the store open, and closes it.
	withStore := func(run func(cmd *cobra.Command, args []string, s checkpoint.Store) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, args []string) error {
			s, err := agent.OpenStore(cmd.Context(), cmp.Or(where, a.cfg.Threads.Store))
			if err != nil {
				return fmt.Errorf("--store: %w", err)
			}
			defer s.Close()
			return run(cmd, args, s)
		}
	}
	cmd := &cobra.Command{
		Use:   "threads",
		Short: "List, show and prune the conversations kept as threads (chat --thread, ask --thread)",
	}
	cmd.PersistentFlags().StringVar(&where, "store", "", "where threads are kept: postgres://..., redis://... or a SQLite file (default: threads.store, else threads.db in the user cache dir)")
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print JSON")

	list := &cobra.Command{
		Use:   "list",
		Short: "Every thread, the most recently written first",
		Args:  cobra.NoArgs,
		RunE: withStore(func(cmd *cobra.Command, _ []string, s checkpoint.Store) error {
			threads, err := s.Threads(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.out, threads)
			}
			for _, t := range threads {
				fmt.Fprintf(a.out, "%s  %d checkpoints  last written %s\n", t.Thread, t.Checkpoints, t.Latest.Format(time.RFC3339))
			}
			return nil
		}),
	}
	show := &cobra.Command{
		Use:   "show ID",
		Short: "The thread's last state: its turns' questions and answers, and what it waits for",
		Args:  cobra.ExactArgs(1),
		RunE: withStore(func(cmd *cobra.Command, args []string, s checkpoint.Store) error {
			cp, err := s.Latest(cmd.Context(), args[0])
			if err != nil {
				return fmt.Errorf("thread %q: %w", args[0], err)
			}
			st, err := stateCodec.Decode(cp)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.out, map[string]any{"checkpoint": cp.ID, "next": cp.Next, "interrupts": cp.Interrupts, "state": st})
			}
			fmt.Fprintf(a.out, "thread %s · turn %d · checkpoint %s\n", args[0], st.Turn, cp.ID)
			for _, m := range agent.Carry(st.Messages, 1<<30) {
				fmt.Fprintf(a.out, "%s: %s\n", m.Role, oneLine(m.Content, 200))
			}
			switch {
			case len(cp.Interrupts) > 0:
				fmt.Fprintf(a.out, "waits for input at %s\n", cp.Next[0])
			case len(cp.Next) > 0:
				fmt.Fprintf(a.out, "the turn stopped before %s; the next message starts a new turn\n", cp.Next[0])
			}
			return nil
		}),
	}
	history := &cobra.Command{
		Use:   "history ID",
		Short: "The thread's checkpoints, newest first",
		Args:  cobra.ExactArgs(1),
		RunE: withStore(func(cmd *cobra.Command, args []string, s checkpoint.Store) error {
			cps, err := s.List(cmd.Context(), args[0], checkpoint.ListOptions{})
			if err != nil {
				return err
			}
			if len(cps) == 0 {
				return fmt.Errorf("thread %q: %w", args[0], checkpoint.ErrNotFound)
			}
			if asJSON {
				for i := range cps {
					cps[i].State = nil // the states are what show prints
				}
				return writeJSON(a.out, cps)
			}
			for _, cp := range cps {
				next := "end"
				if len(cp.Next) > 0 {
					next = "before " + strings.Join(cp.Next, ", ")
				}
				if len(cp.Interrupts) > 0 {
					next += " (waits for input)"
				}
				fmt.Fprintf(a.out, "%s  step %d  %-9s %-18s %s  %s\n", cp.ID, cp.Metadata.Step, cp.Metadata.Source,
					cmp.Or(cp.Metadata.Node, "-"), next, cp.Metadata.Time.Format(time.RFC3339))
			}
			return nil
		}),
	}
	var keepLast int
	var maxAge time.Duration
	prune := &cobra.Command{
		Use:   "prune [ID]",
		Short: "Drop old checkpoints of one thread, or of every thread (default: threads.keep_last and threads.max_age)",
		Args:  cobra.MaximumNArgs(1),
		RunE: withStore(func(cmd *cobra.Command, args []string, s checkpoint.Store) error {
			r := a.cfg.Threads.Retention()
			if cmd.Flags().Changed("keep-last") {
				r.KeepLast = keepLast
			}
			if cmd.Flags().Changed("max-age") {
				r.MaxAge = maxAge
			}
			if err := (checkpoint.Config{KeepLast: r.KeepLast, MaxAge: r.MaxAge}).Validate(); err != nil {
				return fmt.Errorf("prune: %w", err)
			}
			if r.KeepLast == 0 && r.MaxAge == 0 {
				return fmt.Errorf("prune: nothing to drop: give --keep-last N or --max-age D (or threads.keep_last, threads.max_age)")
			}
			thread := ""
			if len(args) == 1 {
				thread = args[0]
			}
			n, err := s.Prune(cmd.Context(), thread, r)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "removed %d checkpoints\n", n)
			return nil
		}),
	}
	prune.Flags().IntVar(&keepLast, "keep-last", 0, "keep this many newest checkpoints per thread (0: no limit)")
	prune.Flags().DurationVar(&maxAge, "max-age", 0, "drop checkpoints older than this, e.g. 720h (0: no limit)")
	cmd.AddCommand(list, show, history, prune)
	return cmd
}

// oneLine is text on one line, cut at n characters.
func oneLine(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > n {
		return string(r[:n]) + "…"
	}
	return text
}
