package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/agent"
)

func newChatCmd(a *app) *cobra.Command {
	var f turnFlags
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Talk to the default graph turn by turn; an empty line, EOF or Ctrl-C ends",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := newView(a, &f)
			if err != nil {
				return err
			}
			ag, done, err := f.build(cmd, a)
			if err != nil {
				return err
			}
			defer done()
			ctx := cmd.Context()
			session := cmp.Or(f.thread, newSessionID())
			var history []*schema.Message
			stdin := cmd.InOrStdin()
			prompt := promptTo(isTerminal(stdin), f.asJSON, a.out, a.errOut)
			lines := readLines(ctx, stdin, 4*agent.MaxMessageRunes)
			failed := 0
			for turn := 1; ; {
				fmt.Fprint(prompt, "> ")
				var in line
				select {
				case <-ctx.Done():
					fmt.Fprintln(prompt)
					return nil
				case in = <-lines:
				}
				if in.err != nil || in.eof || strings.TrimSpace(in.text) == "" {
					fmt.Fprintln(prompt)
					if in.err == nil && failed > 0 {
						return fmt.Errorf("%d turn(s) failed on the model (see above)", failed)
					}
					return in.err
				}
				// A bad line costs the user that line, not the conversation.
				if in.cut { // more than 4 bytes a character: surely over the limit
					fmt.Fprintf(a.errOut, "sgrgraph: message: over the limit of %d characters\n", agent.MaxMessageRunes)
					continue
				}
				t := agent.Turn{SessionID: session, Number: turn, Message: in.text, History: history, Language: f.lang, Thread: f.thread, Role: f.role}
				if _, err := agent.NewState(t); err != nil {
					fmt.Fprintln(a.errOut, "sgrgraph:", err)
					continue
				}
				p := v.newPrinter(in.text)
				if !f.asJSON {
					t.Events = p.event
				}
				res, err := ag.Run(ctx, t)
				res, err = reviewed(ctx, ag, res, err, func() <-chan line { return lines }, prompt, a.out, f.asJSON)
				if err != nil {
					if ctx.Err() != nil {
						fmt.Fprintln(prompt)
						return nil
					}
					if res.Failure == nil {
						return err
					}
					// The model failed this turn: say so, once, and take the
					// next line; the conversation is as it was before it, so
					// the same message can be sent again. The exit status
					// still says a turn failed.
					fmt.Fprintln(a.errOut, "sgrgraph:", modelFailure(err, f.config(a)))
					failed++
					continue
				}
				history, turn = res.Context, turn+1
				if f.asJSON {
					if err := writeJSONLine(a.out, res); err != nil {
						return err
					}
					continue
				}
				p.finish(res)
			}
		},
	}
	f.register(cmd)
	return cmd
}

// promptTo is where the "> " prompt goes. The plain output is for people
// and keeps it; --json output is for programs and holds JSON lines alone,
// so there the prompt goes to standard error for a person typing, and
// nowhere when the input comes from a pipe or a file, which no one types.
func promptTo(typed, asJSON bool, out, errOut io.Writer) io.Writer {
	switch {
	case !asJSON:
		return out
	case typed:
		return errOut
	}
	return io.Discard
}

// writeJSONLine writes v as one line of JSON: chat --json prints one
// result per turn, and a JSON-lines reader takes one value a line.
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// line is one line of input: its text, or the end of the input.
type line struct {
	text string
	cut  bool // longer than the limit; text holds its start only
	eof  bool
	err  error
}

// readLines reads r line by line in the background, so that the prompt can
// wait for Ctrl-C as well as for input. A line over limit bytes is cut, and
// the rest of it skipped, rather than held in memory.
func readLines(ctx context.Context, r io.Reader, limit int) <-chan line {
	out := make(chan line)
	go func() {
		defer close(out)
		br := bufio.NewReader(r)
		for {
			l := readLine(br, limit)
			select {
			case out <- l:
			case <-ctx.Done():
				return
			}
			if l.eof || l.err != nil {
				return
			}
		}
	}()
	return out
}

func readLine(br *bufio.Reader, limit int) line {
	var b []byte
	total := 0
	for {
		part, more, err := br.ReadLine()
		total += len(part)
		if room := limit - len(b); room > 0 {
			b = append(b, part[:min(len(part), room)]...)
		}
		switch {
		case err == io.EOF:
			return line{text: string(b), cut: total > limit, eof: total == 0}
		case err != nil:
			return line{err: err}
		case !more:
			return line{text: string(b), cut: total > limit}
		}
	}
}
