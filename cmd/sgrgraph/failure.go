package main

import (
	"fmt"
	"strings"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/contracts"
	"github.com/sgrgraph/sgrgraph/models"
)

// modelFailure is the one message a person gets for a turn whose model
// call failed for good: where (the host, the node), how, and what to
// change, with the command that checks it. Other errors pass unchanged.
func modelFailure(err error, cfg config.Config) error {
	f, ok := models.FailureOf(err)
	if !ok {
		return err
	}
	host := f.Host
	if host == "" {
		host = "the model server"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no answer: the model at %s failed (%s) during %s", host, f.Cause, f.Node)
	if f.Status != 0 {
		fmt.Fprintf(&b, ", HTTP %d", f.Status)
	}
	b.WriteString(".\n")
	b.WriteString(failureHint(f, cfg))
	b.WriteString("\n`sgrgraph doctor` checks the model server step by step.")
	return failureError{msg: b.String(), err: err}
}

// failureHint says which setting to look at for each cause.
func failureHint(f contracts.Failure, cfg config.Config) string {
	tries := cfg.Model.Retry.Attempts
	switch f.Cause {
	case contracts.CauseConnect:
		return fmt.Sprintf("Check that the server runs and that model.base_url (--base-url) points at it; a connection gets model.connect_timeout (%s).", cfg.Model.ConnectTimeout)
	case contracts.CauseTimeout:
		return fmt.Sprintf("It gave no whole reply within model.timeout (%s), or its stream went quiet for model.idle_timeout (%s): raise them for a slow server, or check its load.",
			cfg.Model.Timeout, cfg.Model.IdleTimeout)
	case contracts.CauseRateLimited:
		return fmt.Sprintf("It answered 429 (too many requests) on all %d tries (model.retry.attempts): wait, or raise its limits.", tries)
	case contracts.CauseUpstream:
		return fmt.Sprintf("It answered with a server error on all %d tries (model.retry.attempts): see its own log.", tries)
	case contracts.CauseRejected:
		return "It refused the request: check model.api_key (or $OPENAI_API_KEY) and model.name (--model)."
	case contracts.CauseStreamCut:
		return fmt.Sprintf("Its reply stream broke off on all %d tries: a proxy in between may cut long responses.", tries)
	}
	return "Its reply was not the OpenAI protocol's: check that model.base_url ends in /v1 and serves chat completions."
}

// failureError prints as its message; errors.Is and As still reach the
// turn's error.
type failureError struct {
	msg string
	err error
}

func (e failureError) Error() string { return e.msg }
func (e failureError) Unwrap() error { return e.err }
