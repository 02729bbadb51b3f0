package tests

// layer is the type of an entry of layers (layers_test.go).
type layer = struct {
	allowed []string
	eino    bool
}

// The telemetry packages' layers, kept beside the table in layers_test.go.
// telemetry/spans needs only the OpenTelemetry API (and eino's callbacks),
// so graph and agent may trace; the SDK and the exporters stay in
// telemetry, which only the commands and the examples import.
func init() {
	layers["telemetry"] = layer{nil, false}
	layers["telemetry/spans"] = layer{nil, true}
	layers["telemetry/otlptest"] = layer{nil, false}
	layers["examples/tracing"] = layer{[]string{"graph", "models", "tables", "telemetry", "examples/internal/exampletest"}, true}
	for pkg, more := range map[string][]string{"graph": {"telemetry/spans"}, "agent": {"telemetry/spans"}, "cmd/sgrgraph": {"telemetry"}} {
		l := layers[pkg]
		l.allowed = append(l.allowed, more...)
		layers[pkg] = l
	}
}
