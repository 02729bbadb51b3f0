package main

import (
	"errors"
	"io"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/mcpserver"
)

func newMCPCmd(a *app) *cobra.Command {
	var f turnFlags
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the agent over MCP on stdin/stdout: the tools ask, ask_structured and search_kb, the decision tables as resources",
		Long: "Serve the agent to an MCP client (an IDE assistant, a desktop chat app) that starts this command and speaks\n" +
			"the Model Context Protocol over its stdin and stdout. Stdout carries the protocol only: logs go to stderr.\n" +
			"The ask tools' session_id continues a conversation kept in the thread store (--store, threads.store, else\n" +
			"threads.db in the user cache directory).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.keepThreads = true
			ag, done, err := f.build(cmd, a)
			if err != nil {
				return err
			}
			defer done()
			s := mcpserver.New(ag, mcpserver.Options{Name: "sgrgraph", Version: buildVersion(), Log: a.log})
			// The command's own streams, not os.Stdin/os.Stdout
			// (mcp.StdioTransport): the same in a test as in a process.
			t := &mcp.IOTransport{Reader: io.NopCloser(cmd.InOrStdin()), Writer: nopWriteCloser{a.out}}
			a.log.Info().Msg("mcp: serving on stdin/stdout")
			err = s.Run(cmd.Context(), t)
			if errors.Is(err, io.EOF) {
				err = nil // the client closed our stdin: it is done
			}
			return err
		},
	}
	f.registerKB(cmd)
	f.registerModel(cmd)
	cmd.Flags().StringVar(&f.store, "store", "", "where conversations are kept: postgres://..., redis://... or a SQLite file (default: threads.store, else threads.db in the user cache dir)")
	return cmd
}

// nopWriteCloser keeps the session's end from closing the command's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// buildVersion is the module version the binary was built from, for the
// MCP handshake; "dev" for a build from a work tree.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
