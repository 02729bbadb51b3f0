// Package config loads sgrgraph's configuration: one YAML file laid over the
// embedded defaults (defaults.yaml), then environment overrides, then the
// command-line flags the caller applies last. An unknown key or a bad value
// is an error that names it.
//
// # Example
//
//	cfg, err := config.Load("sgrgraph.yaml", os.LookupEnv)
//	if err != nil { ... }
//	set, err := decisions.Standard(cfg.Tables)
package config
