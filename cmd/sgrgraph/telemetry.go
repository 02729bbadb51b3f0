package main

import (
	"github.com/spf13/cobra"

	"github.com/sgrgraph/sgrgraph/server"
	"github.com/sgrgraph/sgrgraph/telemetry"
)

// startTelemetry sets tracing up from the OTEL_* environment for the
// command about to run (docs/observability.md). With an exporter, the
// command's RunE is wrapped so the spans are flushed when it returns,
// failed or not: cobra's post-run hooks run only after a success.
func (a *app) startTelemetry(cmd *cobra.Command) error {
	p, err := telemetry.Setup(cmd.Context(), buildVersion())
	if err != nil {
		return err
	}
	a.telemetry = p
	if run := cmd.RunE; run != nil && p.Enabled() {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			defer a.flushTelemetry(c)
			return run(c, args)
		}
	}
	return nil
}

// flushTelemetry exports the spans left, within telemetry.ShutdownTimeout;
// a collector that is down costs a warning, never the command's result.
func (a *app) flushTelemetry(cmd *cobra.Command) {
	if err := a.telemetry.Shutdown(cmd.Context()); err != nil {
		a.log.Warn().Err(err).Msg("traces not exported")
	}
}

// serverTracing is what serve gives the server: spans for its requests
// when tracing is on.
func (a *app) serverTracing() server.Tracing {
	return server.Tracing{Provider: a.telemetry.TracerProvider(), Propagator: a.telemetry.Propagator()}
}
