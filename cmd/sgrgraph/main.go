// Command sgrgraph runs guarded, schema-guided agent graphs and the tools
// around them: decision tables, the safety guard, the knowledge base and its
// search.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"
)

// interruptGrace is how long a command may take to stop after SIGINT or
// SIGTERM before the process ends without it, so that a signal ends any
// command within about a second, even one blocked where the signal's
// context does not reach (reading a FIFO, a long index build).
const interruptGrace = time.Second

// serveGrace is serve's: it stops taking requests at once, and the turns in
// flight may take up to shutdownGrace to finish.
const serveGrace = shutdownGrace + 5*time.Second

// gcPercent is the collector's target unless GOGC says otherwise: a heap
// four times the live one before a collection, rather than twice. The live
// heap is tens of megabytes (an index's cache, a turn's messages), so the
// memory is cheap, and collecting less often takes 15% off a short command
// such as ask, most of which is start-up.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	grace := interruptGrace
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "serve":
			grace = serveGrace
		case "worker":
			grace = workerGrace + 5*time.Second
		}
	}
	os.Exit(execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, signals, grace))
}

// execute runs one command line and returns the exit code: 0, 1 for an
// error, or 128 plus the signal's number when a signal ended the command
// (130 for SIGINT, 143 for SIGTERM), whatever the command itself returned.
// The first signal cancels the context the command runs under; a second
// signal, or the grace period running out, returns at once without waiting
// for the command.
func execute(args []string, stdin io.Reader, stdout, stderr io.Writer, signals <-chan os.Signal, grace time.Duration) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	root.SetIn(stdin)
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	var first os.Signal
	var deadline <-chan time.Time
	for {
		select {
		case err := <-done:
			return finish(stderr, err, first)
		case sig := <-signals:
			if first != nil {
				fmt.Fprintf(stderr, "sgrgraph: %s again: stopped at once\n", signalName(sig))
				return exitCode(first)
			}
			first = sig
			cancel()
			deadline = time.After(grace)
		case <-deadline:
			fmt.Fprintf(stderr, "sgrgraph: %s: the command had not stopped %s after it; stopped\n", signalName(first), grace)
			return exitCode(first)
		}
	}
}

// finish reports how a command that returned ended and gives its exit code.
func finish(stderr io.Writer, err error, sig os.Signal) int {
	switch {
	case sig != nil:
		msg := "sgrgraph: interrupted by " + signalName(sig)
		// The cancellation is what the signal did; the rest of the error
		// (rows not run, where to resume) is worth reading.
		if err != nil {
			detail := strings.TrimSuffix(err.Error(), ": "+context.Canceled.Error())
			if detail != context.Canceled.Error() {
				msg += "; " + detail
			}
		}
		fmt.Fprintln(stderr, msg)
		return exitCode(sig)
	case err != nil:
		fmt.Fprintln(stderr, "sgrgraph:", err)
		return 1
	}
	return 0
}

// exitCode is the shell's code for a process a signal ended: 128 plus its
// number.
func exitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
