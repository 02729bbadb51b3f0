package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sgrgraph/sgrgraph/agent"
	"github.com/sgrgraph/sgrgraph/contracts"
)

// reviewed carries a turn through the reviews it is held for
// (guardian.human_review): it shows the person the draft, reads the
// decision from the input (opened only when a review is asked) and
// resumes the turn, until the turn ends.
func reviewed(ctx context.Context, ag *agent.Agent, res contracts.StructuredResult, err error,
	input func() <-chan line, prompt, out io.Writer, asJSON bool) (contracts.StructuredResult, error) {
	for {
		thread, req, held := agent.Paused(err)
		if !held {
			return res, err
		}
		if asJSON {
			if werr := writeJSONLine(out, map[string]any{"review": req, "thread": thread}); werr != nil {
				return res, werr
			}
		} else {
			fmt.Fprintf(prompt, "── held for a person's review (%s", req.Reason)
			if len(req.Reasons) > 0 {
				fmt.Fprintf(prompt, ": %s", strings.Join(req.Reasons, ", "))
			}
			fmt.Fprintf(prompt, ") ──\n%s\n", req.Draft)
		}
		answer, aerr := readDecision(ctx, input(), prompt)
		if aerr != nil {
			return res, aerr
		}
		res, err = ag.Resume(ctx, thread, answer)
	}
}

// readDecision asks until the person answers: a (approve), r (reject) or
// e followed by the answer to send instead.
func readDecision(ctx context.Context, lines <-chan line, prompt io.Writer) (contracts.ReviewAnswer, error) {
	for {
		fmt.Fprint(prompt, "approve [a], edit [e your answer], reject [r]? ")
		var in line
		select {
		case <-ctx.Done():
			return contracts.ReviewAnswer{}, ctx.Err()
		case in = <-lines:
		}
		if in.err != nil {
			return contracts.ReviewAnswer{}, in.err
		}
		if in.eof {
			return contracts.ReviewAnswer{}, errors.New("review: the input ended before a decision; the turn stays held")
		}
		word, rest, _ := strings.Cut(strings.TrimSpace(in.text), " ")
		switch strings.ToLower(word) {
		case "a", "approve":
			return contracts.ReviewAnswer{Decision: contracts.ReviewApprove}, nil
		case "r", "reject":
			return contracts.ReviewAnswer{Decision: contracts.ReviewReject}, nil
		case "e", "edit":
			if strings.TrimSpace(rest) != "" {
				return contracts.ReviewAnswer{Decision: contracts.ReviewEdit, Text: strings.TrimSpace(rest)}, nil
			}
		}
	}
}
