// Command sgrgraph runs guarded, schema-guided agent graphs and the tools
// around them: decision tables, the safety guard, the knowledge base and its
// search.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	// Ctrl-C cancels the context every command runs under.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // the first Ctrl-C asks to stop; a second one ends the process at once
	}()
	err := newRootCmd(os.Stdout, os.Stderr).ExecuteContext(ctx)
	interrupted := ctx.Err() != nil // read before stop, which cancels ctx too
	stop()
	switch {
	case err != nil && interrupted && errors.Is(err, context.Canceled):
		msg := strings.TrimSuffix(err.Error(), ": "+context.Canceled.Error())
		if msg == context.Canceled.Error() {
			msg = ""
		}
		fmt.Fprintln(os.Stderr, strings.TrimSuffix("sgrgraph: interrupted; "+msg, "; "))
		os.Exit(130) // the shell's code for Ctrl-C
	case err != nil:
		fmt.Fprintln(os.Stderr, "sgrgraph:", err)
		os.Exit(1)
	}
}
