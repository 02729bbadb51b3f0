package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/config"
	"github.com/sgrgraph/sgrgraph/telemetry"
)

// app is what every command shares: where to write, the logger and the
// configuration, filled by the root command before any command runs.
type app struct {
	out, errOut io.Writer
	log         zerolog.Logger
	cfg         config.Config

	configPath string
	logLevel   string
	// telemetry exports the command's spans when OTEL_* asks (telemetry.go).
	telemetry *telemetry.Provider
}

func newRootCmd(out, errOut io.Writer) *cobra.Command {
	a := &app{out: out, errOut: errOut}
	root := &cobra.Command{
		Use:           "sgrgraph",
		Short:         "Guarded, schema-guided agent graphs on eino",
		Version:       currentVersion().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.setup(); err != nil {
				return err
			}
			return a.startTelemetry(cmd)
		},
	}
	root.SetOut(out)
	root.SetErr(errOut)
	root.SetFlagErrorFunc(flagError)
	// --version without cobra's -v shorthand, which stays free.
	root.Flags().Bool("version", false, "print the module version and the commit the binary was built from")
	root.SetVersionTemplate("sgrgraph {{.Version}}\n")
	root.PersistentFlags().StringVar(&a.configPath, "config", "", "YAML configuration file laid over the defaults")
	root.PersistentFlags().StringVar(&a.logLevel, "log-level", "warn", "log level: debug, info, warn, error")
	root.AddCommand(newTablesCmd(a), newDecideCmd(a), newGuardCmd(a), newIndexCmd(a), newSearchCmd(a), newAskCmd(a), newChatCmd(a), newGraphCmd(a), newDoctorCmd(a), newBatchCmd(a), newThreadsCmd(a), newServeCmd(a), newWorkerCmd(a), newMCPCmd(a), newEvalCmd(a), newVersionCmd())
	return root
}

func (a *app) setup() error {
	var level zerolog.Level
	switch a.logLevel {
	case "debug", "info", "warn", "error":
		level, _ = zerolog.ParseLevel(a.logLevel)
	default:
		return fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", a.logLevel)
	}
	// Parallel branches of a turn log at once: one line is written whole
	// before the next (the console writer formats into the writer in pieces).
	a.log = zerolog.New(zerolog.SyncWriter(zerolog.ConsoleWriter{Out: a.errOut, NoColor: true})).Level(level).With().Timestamp().Logger()
	logRedisTo(a.log)
	cfg, err := config.Load(a.configPath, os.LookupEnv)
	if err != nil {
		return err
	}
	a.cfg = cfg
	return nil
}
