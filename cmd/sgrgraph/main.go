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
	"syscall"
)

func main() {
	// Ctrl-C cancels the context every command runs under.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCmd(os.Stdout, os.Stderr).ExecuteContext(ctx)
	interrupted := ctx.Err() != nil // read before stop, which cancels ctx too
	stop()
	switch {
	case err != nil && interrupted && errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "sgrgraph: interrupted")
		os.Exit(130) // the shell's code for Ctrl-C
	case err != nil:
		fmt.Fprintln(os.Stderr, "sgrgraph:", err)
		os.Exit(1)
	}
}
