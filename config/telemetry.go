package config

// Telemetry says what the traces may carry; whether they are exported at
// all is the OTEL_* environment's to say (package telemetry).
type Telemetry struct {
	// RecordContent puts the messages sent to and received from the
	// model, and tool arguments and results, on the spans, with personal
	// data masked. Off by default: they hold what users typed.
	RecordContent bool `yaml:"record_content"`
}
